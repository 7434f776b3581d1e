// Files people hand to layoutbench (results to import, scenarios, the drive catalog, usage
// samples, job files): opened only when they are a regular file or standard input, read no
// further than a size limit, and errors in them reported as one line,
// "FILE:LINE[:COL]: FIELD: message", whatever bytes the file holds.
#pragma once

#include "engine/base/expected.h"
#include "engine/base/utf8.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lb {

// How much of one input may be read. `setting` names what sets the limit, for the message
// (an app passes its flag, "--max-input-size"); empty when it cannot be changed.
struct InputLimit {
    std::uint64_t maxBytes = 0;
    std::string setting;
};

// Defaults: documents (scenarios, the catalog, samples, job files) are read whole and parsed in
// memory; results to import are streamed, so their limit only stops an endless input.
inline constexpr std::uint64_t documentLimitBytes = std::uint64_t{16} << 20; // 16 MiB
inline constexpr std::uint64_t resultLimitBytes = std::uint64_t{256} << 30;  // 256 GiB
// Results in a format that is parsed whole (all but bonnie++ CSV) are read into memory first.
inline constexpr std::uint64_t wholeResultLimitBytes = std::uint64_t{256} << 20; // 256 MiB

// One limit for every input of this process, set once at start by an app that lets people
// choose it (the CLI's --max-input-size); the defaults above until then.
void setInputLimit(std::uint64_t maxBytes, std::string setting);
// The limit for a document, for results to import, and for results parsed whole.
InputLimit documentLimit();
InputLimit resultLimit();
InputLimit wholeResultLimit();

// The name standard input ("-") goes by in messages.
inline constexpr std::string_view standardInputName = "<stdin>";

// An open input: a regular file, or standard input for "-" (a pipe, a file or a terminal,
// bounded by the limit). A FIFO, a device, a directory or a socket named as a path is refused
// before anything is read (a FIFO without a writer would block, /dev/zero never ends).
class InputFile {
public:
    static Expected<InputFile> open(const std::string& path, InputLimit limit);
    InputFile(InputFile&& other) noexcept;
    InputFile& operator=(InputFile&& other) noexcept;
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    ~InputFile();

    // The path as given, or "<stdin>".
    const std::string& name() const { return name_; }
    // The size of a regular file when opened; nullopt for standard input that is not one.
    std::optional<std::uint64_t> size() const { return size_; }
    std::uint64_t bytesRead() const { return read_; }
    // A regular file read to its end: the next read() returns 0 without asking the system.
    bool ended() const { return ended_; }

    // Reads up to `capacity` bytes; 0 at the end. A bad-input error once more than the limit
    // has been read; a runtime error when the system refuses to read.
    Expected<std::size_t> read(char* buffer, std::size_t capacity);
    // How much to ask read() for, at most `chunk`: for a regular file, what is left of its size
    // and one byte more (a file that grew is read on), so buffers are not sized, and filled,
    // beyond it.
    std::size_t readSize(std::size_t chunk) const;
    // Appends everything left to `out`, within the limit, and within `tighter` when given.
    Expected<void> readRest(std::string& out, const InputLimit* tighter = nullptr);

private:
    InputFile(int fd, bool owned, std::string name, std::optional<std::uint64_t> size,
              InputLimit limit);
    int fd_ = -1;
    bool owned_ = false;
    std::string name_;
    std::optional<std::uint64_t> size_;
    InputLimit limit_;
    std::uint64_t read_ = 0;
    bool ended_ = false; // a regular file read to its end
};

// One line of an input: its number from 1, its text without the line end (\n or \r\n).
struct InputLine {
    std::int64_t number = 0;
    std::string_view text;
};

// Reads an input in constant memory: a look at its beginning, then line by line; or, for a
// format that is parsed whole, the rest at once.
class InputReader {
public:
    // A line longer than this is refused rather than held: no format read line by line has any.
    static constexpr std::size_t maxLineBytes = std::size_t{1} << 20;

    explicit InputReader(InputFile file) : file_(std::move(file)) {}
    const InputFile& file() const { return file_; }

    // The first `bytes` of the input (all of it when it is shorter), without consuming them.
    Expected<std::string_view> peek(std::size_t bytes);
    // The next line, or nullopt at the end. Its text lasts until the next call.
    Expected<std::optional<InputLine>> next();
    // Everything not consumed yet, within `limit` (counted from the input's start).
    Expected<std::string> rest(const InputLimit& limit);

private:
    // Reads one more piece into the buffer; false at the end of the input.
    Expected<bool> fill();
    InputFile file_;
    std::string buffer_;
    std::size_t begin_ = 0;   // the buffer's bytes before this are consumed
    std::size_t scanned_ = 0; // no line end in [begin_, scanned_)
    std::int64_t line_ = 0;
    bool end_ = false;
};

// The whole text of an input, checked and bounded as InputFile.
Expected<std::string> readInput(const std::string& path, const InputLimit& limit);

// "NAME: over the input size limit of 16 MiB (SETTING)": the message for an input too large.
std::string overLimitMessage(std::string_view name, const InputLimit& limit);

// "FILE:LINE[:COL]: FIELD: message" with every part escaped; line or column 0 is left out, an
// empty field too.
std::string inputError(std::string_view file, std::int64_t line, int column, std::string_view field,
                       std::string_view message);
inline Unexpected badInputAt(std::string_view file, std::int64_t line, int column,
                             std::string_view field, std::string_view message) {
    return badInput(inputError(file, line, column, field, message));
}

} // namespace lb
