// Standard output and standard error as the command line writes them: bytes that are not UTF-8
// (a file name or a layout name given on the command line and read back from the store) are
// escaped as \xHH on their way out (engine/base/utf8.h), whatever printed them. JSON output is
// dumped with lb::dumpJson, so it reaches here valid already.
#pragma once

#include <streambuf>
#include <string>

namespace lb::cli {

// A stream buffer that escapes what is written through it and passes it on to `sink`. A UTF-8
// sequence split across two writes is held until its end arrives (or the buffer is destroyed).
class EscapingStreambuf : public std::streambuf {
public:
    explicit EscapingStreambuf(std::streambuf* sink) : sink_(sink) {}
    ~EscapingStreambuf() override;
    EscapingStreambuf(const EscapingStreambuf&) = delete;
    EscapingStreambuf& operator=(const EscapingStreambuf&) = delete;

protected:
    int_type overflow(int_type ch) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    bool pass(bool final);
    std::streambuf* sink_;
    std::string pending_;
};

// Puts escaping buffers in front of std::cout and std::cerr for its lifetime.
class EscapedStandardStreams {
public:
    EscapedStandardStreams();
    ~EscapedStandardStreams();
    EscapedStandardStreams(const EscapedStandardStreams&) = delete;
    EscapedStandardStreams& operator=(const EscapedStandardStreams&) = delete;

private:
    std::streambuf* coutSink_;
    std::streambuf* cerrSink_;
    EscapingStreambuf out_;
    EscapingStreambuf err_;
};

} // namespace lb::cli
