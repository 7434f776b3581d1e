// Checked, bounded reading of the files people hand to layoutbench, and the one-line error
// format for what is wrong in them; see input.h.
#include "engine/input.h"

#include "engine/size.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace lb {

namespace {

constexpr std::size_t chunkBytes = std::size_t{1} << 16;

std::string systemError(int error) {
    return std::strerror(error);
}

// What a file that is not a regular one is, for the refusal.
const char* kindOf(mode_t mode) {
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

std::optional<InputLimit>& chosenLimit() {
    static std::optional<InputLimit> limit;
    return limit;
}

} // namespace

void setInputLimit(std::uint64_t maxBytes, std::string setting) {
    chosenLimit() = InputLimit{maxBytes, std::move(setting)};
}

InputLimit documentLimit() {
    return chosenLimit().value_or(InputLimit{documentLimitBytes, {}});
}

InputLimit resultLimit() {
    return chosenLimit().value_or(InputLimit{resultLimitBytes, {}});
}

std::string overLimitMessage(std::string_view name, const InputLimit& limit) {
    std::string msg =
        escapeControl(name) + ": over the input size limit of " + formatBytes(limit.maxBytes, true);
    if (!limit.setting.empty())
        msg += " (" + limit.setting + ")";
    return msg;
}

InputFile::InputFile(int fd, bool owned, std::string name, std::optional<std::uint64_t> size,
                     InputLimit limit)
    : fd_(fd), owned_(owned), name_(std::move(name)), size_(size), limit_(std::move(limit)) {}

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), owned_(std::exchange(other.owned_, false)),
      name_(std::move(other.name_)), size_(other.size_), limit_(std::move(other.limit_)),
      read_(other.read_) {}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
    if (this != &other) {
        if (owned_)
            ::close(fd_);
        fd_ = std::exchange(other.fd_, -1);
        owned_ = std::exchange(other.owned_, false);
        name_ = std::move(other.name_);
        size_ = other.size_;
        limit_ = std::move(other.limit_);
        read_ = other.read_;
    }
    return *this;
}

InputFile::~InputFile() {
    if (owned_)
        ::close(fd_);
}

Expected<InputFile> InputFile::open(const std::string& path, InputLimit limit) {
    const bool standardInput = path == "-";
    const std::string name = standardInput ? std::string(standardInputName) : path;
    const std::string shown = escapeControl(name);
    // O_NONBLOCK: opening a FIFO that has no writer returns at once instead of waiting for one;
    // the FIFO is then refused below, before any read.
    const int fd = standardInput
                       ? STDIN_FILENO
                       : ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return badInput(shown + ": cannot read: " + systemError(errno));
    InputFile file(fd, !standardInput, name, std::nullopt, std::move(limit));
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return badInput(shown + ": cannot read: " + systemError(errno));
    if (S_ISDIR(st.st_mode))
        return badInput(shown + ": is a directory, not a file");
    if (S_ISREG(st.st_mode)) {
        file.size_ = static_cast<std::uint64_t>(st.st_size);
        if (*file.size_ > file.limit_.maxBytes)
            return badInput(overLimitMessage(name, file.limit_));
    } else if (!standardInput) {
        return badInput(shown + ": is " + kindOf(st.st_mode) +
                        ", not a regular file (give - to read standard input)");
    }
    if (!standardInput) {
        const int flags = ::fcntl(fd, F_GETFL);
        if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
            return runtimeError(shown + ": cannot read: " + systemError(errno));
    }
    return file;
}

Expected<std::size_t> InputFile::read(char* buffer, std::size_t capacity) {
    // One byte past the limit is enough to know it was passed.
    const std::uint64_t allowed = limit_.maxBytes - std::min(limit_.maxBytes, read_) + 1;
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(capacity, allowed));
    for (;;) {
        const ssize_t n = ::read(fd_, buffer, want);
        if (n >= 0) {
            read_ += static_cast<std::uint64_t>(n);
            if (read_ > limit_.maxBytes)
                return badInput(overLimitMessage(name_, limit_));
            return static_cast<std::size_t>(n);
        }
        if (errno == EINTR)
            continue;
        if (errno == EISDIR)
            return badInput(escapeControl(name_) + ": is a directory, not a file");
        return runtimeError(escapeControl(name_) + ": cannot read: " + systemError(errno));
    }
}

Expected<void> InputFile::readRest(std::string& out) {
    if (size_ && *size_ > read_)
        out.reserve(out.size() + static_cast<std::size_t>(*size_ - read_) + chunkBytes);
    for (;;) {
        const std::size_t at = out.size();
        // Grow by whole chunks; a regular file's size was reserved, so this rarely copies.
        out.resize(at + chunkBytes);
        auto n = read(out.data() + at, chunkBytes);
        if (!n) {
            out.resize(at);
            return fail(n.error());
        }
        out.resize(at + *n);
        if (*n == 0)
            return {};
    }
}

Expected<std::string> readInput(const std::string& path, const InputLimit& limit) {
    auto file = InputFile::open(path, limit);
    if (!file)
        return fail(file.error());
    std::string text;
    if (auto r = file->readRest(text); !r)
        return fail(r.error());
    return text;
}

std::string escapeControl(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u != 0x7f) {
            out += c;
            continue;
        }
        switch (c) {
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default: {
            constexpr char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 0xf];
        }
        }
    }
    return out;
}

std::string inputError(std::string_view file, int line, int column, std::string_view field,
                       std::string_view message) {
    std::string out = escapeControl(file);
    if (line > 0) {
        out += ':' + std::to_string(line);
        if (column > 0)
            out += ':' + std::to_string(column);
    }
    if (!field.empty())
        out += ": " + escapeControl(field);
    out += ": " + escapeControl(message);
    return out;
}

} // namespace lb
