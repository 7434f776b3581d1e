// Did-you-mean for names people type: commands, options, layout kinds, list targets. The nearest
// known name by edit distance (insertions, deletions, substitutions and swaps of two neighbours),
// if it is near enough to be a slip of the fingers rather than another word.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lb {

// Optimal string alignment distance, case-insensitive.
std::size_t editDistance(std::string_view a, std::string_view b);

// The known names nearest `typed`, in their order: at most 1 edit for names up to 4
// characters, 2 up to 8, 3 beyond; else those that start with `typed` (at least 3 characters).
// Equally near names all, up to three; none when more are, or nothing is that near.
std::vector<std::string> nearestNames(std::string_view typed,
                                      const std::vector<std::string>& known);

// " (did you mean 'zfs-raidz1'?)", " (did you mean 'zfs-raidz1', 'zfs-raidz2' or
// 'zfs-raidz3'?)", or "" when nothing is near.
std::string didYouMean(std::string_view typed, const std::vector<std::string>& known);
// The same sentence for names already chosen ("" for none).
std::string didYouMeanOf(const std::vector<std::string>& near);

} // namespace lb
