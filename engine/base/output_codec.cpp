#include "engine/base/output_codec.h"

#include <cstddef>
#include <cstdint>
#include <lz4.h>
#include <vector>

namespace lb {

namespace {

constexpr std::string_view magic{"LZ4\x01", 4};
constexpr std::size_t lengthBytes = 8;
constexpr std::size_t headerBytes = magic.size() + lengthBytes;

// LZ4's state and an output buffer, made once per thread: a buffer of the bound's size made and
// zeroed for each output cost a fifth of packing it. The state is cleared for each output (16
// KiB, a tenth of a microsecond), so that the same text always packs to the same bytes.
class Packer {
public:
    // The LZ4 block of `text` in a buffer valid until the next call; empty if LZ4 failed.
    std::string_view pack(std::string_view text) {
        const int size = static_cast<int>(text.size());
        const auto bound = static_cast<std::size_t>(LZ4_compressBound(size));
        if (buffer_.size() < bound)
            buffer_.resize(bound);
        const int packed = LZ4_compress_fast_extState(state_.data(), text.data(), buffer_.data(),
                                                      size, static_cast<int>(bound), 1);
        return std::string_view(buffer_.data(), packed > 0 ? static_cast<std::size_t>(packed) : 0);
    }

private:
    std::vector<std::max_align_t> state_ = std::vector<std::max_align_t>(
        (static_cast<std::size_t>(LZ4_sizeofState()) + sizeof(std::max_align_t) - 1) /
        sizeof(std::max_align_t));
    std::string buffer_;
};

} // namespace

std::optional<std::string> packOutput(std::string_view text) {
    if (text.size() < packedOutputMinBytes || text.size() > LZ4_MAX_INPUT_SIZE)
        return std::nullopt;
    thread_local Packer packer;
    const auto block = packer.pack(text);
    const std::size_t total = headerBytes + block.size();
    if (block.empty() || total > text.size() - text.size() / 8)
        return std::nullopt;
    std::string blob;
    blob.reserve(total);
    blob += magic;
    for (std::size_t i = 0; i < lengthBytes; ++i)
        blob += static_cast<char>((std::uint64_t{text.size()} >> (8 * i)) & 0xff);
    blob += block;
    return blob;
}

Expected<std::string> unpackOutput(std::string_view blob) {
    if (blob.size() < headerBytes || !blob.starts_with(magic))
        return runtimeError("stored output is not text and not LZ4 output of layoutbench");
    std::uint64_t length = 0;
    for (std::size_t i = 0; i < lengthBytes; ++i)
        length |= std::uint64_t{static_cast<unsigned char>(blob[magic.size() + i])} << (8 * i);
    const auto block = blob.substr(headerBytes);
    // LZ4 grows no text more than 255 times; a length beyond that is damage, not a reason to
    // allocate it.
    if (length > LZ4_MAX_INPUT_SIZE || length > std::uint64_t{255} * block.size() + 16)
        return runtimeError("stored LZ4 output claims " + std::to_string(length) +
                            " bytes from a block of " + std::to_string(block.size()));
    std::string text(static_cast<std::size_t>(length), '\0');
    const int got = LZ4_decompress_safe(block.data(), text.data(), static_cast<int>(block.size()),
                                        static_cast<int>(text.size()));
    if (got < 0 || static_cast<std::uint64_t>(got) != length)
        return runtimeError("stored LZ4 output is damaged (" + std::to_string(block.size()) +
                            " bytes that do not decompress to " + std::to_string(length) + ")");
    return text;
}

} // namespace lb
