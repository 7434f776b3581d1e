// Checked, bounded reading of the files people hand to layoutbench, and the one-line error
// format for what is wrong in them; see input.h.
#include "engine/base/input.h"

#include "engine/base/size.h"

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

InputLimit wholeResultLimit() {
    return chosenLimit().value_or(
        InputLimit{wholeResultLimitBytes, "results other than bonnie++ CSV are read whole"});
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
      read_(other.read_), ended_(other.ended_) {}

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
        ended_ = other.ended_;
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
    // the FIFO is then refused below, before any read. Only regular files pass, whose reads
    // the flag does not change: it stays set.
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
    return file;
}

std::size_t InputFile::readSize(std::size_t chunk) const {
    if (!size_ || read_ >= *size_) // not a regular file, or one that grew
        return chunk;
    return static_cast<std::size_t>(std::min<std::uint64_t>(chunk, *size_ - read_ + 1));
}

Expected<std::size_t> InputFile::read(char* buffer, std::size_t capacity) {
    if (ended_)
        return 0;
    // One byte past the limit is enough to know it was passed.
    const std::uint64_t allowed = limit_.maxBytes - std::min(limit_.maxBytes, read_) + 1;
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(capacity, allowed));
    for (;;) {
        const ssize_t n = ::read(fd_, buffer, want);
        if (n >= 0) {
            read_ += static_cast<std::uint64_t>(n);
            // A regular file reads short only at its end: no read is needed to find it.
            ended_ = size_ && static_cast<std::size_t>(n) < want;
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

Expected<void> InputFile::readRest(std::string& out, const InputLimit* tighter) {
    const auto over = [&] {
        return tighter && std::max(read_, size_.value_or(0)) > tighter->maxBytes;
    };
    if (over())
        return badInput(overLimitMessage(name_, *tighter));
    if (size_ && *size_ > read_)
        out.reserve(out.size() + static_cast<std::size_t>(*size_ - read_) + chunkBytes);
    for (;;) {
        if (ended_)
            return {};
        const std::size_t at = out.size();
        // A regular file's size was reserved, so this rarely copies.
        const std::size_t want = readSize(chunkBytes);
        out.resize(at + want);
        auto n = read(out.data() + at, want);
        if (!n) {
            out.resize(at);
            return fail(n.error());
        }
        out.resize(at + *n);
        if (over())
            return badInput(overLimitMessage(name_, *tighter));
        if (*n == 0)
            return {};
    }
}

Expected<bool> InputReader::fill() {
    // A regular file read to its end needs no buffer grown (and zeroed) for a read of nothing.
    end_ = end_ || file_.ended();
    if (end_)
        return false;
    if (begin_ > 0 && begin_ * 2 >= buffer_.size()) {
        buffer_.erase(0, begin_);
        scanned_ -= begin_;
        begin_ = 0;
    }
    const std::size_t at = buffer_.size();
    const std::size_t want = file_.readSize(chunkBytes);
    buffer_.resize(at + want);
    auto n = file_.read(buffer_.data() + at, want);
    buffer_.resize(at + (n ? *n : 0));
    if (!n)
        return fail(n.error());
    end_ = *n == 0;
    return !end_;
}

Expected<std::string_view> InputReader::peek(std::size_t bytes) {
    while (buffer_.size() - begin_ < bytes) {
        auto more = fill();
        if (!more)
            return fail(more.error());
        if (!*more)
            break;
    }
    return std::string_view(buffer_).substr(begin_, bytes);
}

Expected<std::optional<InputLine>> InputReader::next() {
    for (;;) {
        const auto eol = buffer_.find('\n', scanned_);
        if (eol != std::string::npos || (end_ && begin_ < buffer_.size())) {
            const std::size_t stop = eol == std::string::npos ? buffer_.size() : eol;
            std::string_view text(buffer_.data() + begin_, stop - begin_);
            if (!text.empty() && text.back() == '\r')
                text.remove_suffix(1);
            begin_ = scanned_ = eol == std::string::npos ? stop : stop + 1;
            return std::optional<InputLine>(InputLine{++line_, text});
        }
        if (end_)
            return std::optional<InputLine>();
        scanned_ = buffer_.size();
        if (scanned_ - begin_ > maxLineBytes)
            return badInputAt(file_.name(), line_ + 1, 0, "",
                              "a line longer than 1 MiB: not a line of results");
        if (auto more = fill(); !more)
            return fail(more.error());
    }
}

Expected<std::string> InputReader::rest(const InputLimit& limit) {
    std::string text = begin_ == 0 ? std::move(buffer_) : buffer_.substr(begin_);
    buffer_.clear();
    begin_ = scanned_ = 0;
    if (auto r = file_.readRest(text, &limit); !r)
        return fail(r.error());
    end_ = true;
    return text;
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

std::string inputError(std::string_view file, std::int64_t line, int column, std::string_view field,
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
