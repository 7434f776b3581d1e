#include "app/cli/escaped_output.h"

#include "engine/base/utf8.h"

#include <iostream>

namespace lb::cli {

EscapingStreambuf::~EscapingStreambuf() {
    pass(true);
    sink_->pubsync();
}

bool EscapingStreambuf::pass(bool final) {
    std::string out;
    const std::size_t used = escapeInvalidUtf8(pending_, out, final);
    pending_.erase(0, used);
    const auto n = static_cast<std::streamsize>(out.size());
    return sink_->sputn(out.data(), n) == n;
}

EscapingStreambuf::int_type EscapingStreambuf::overflow(int_type ch) {
    if (traits_type::eq_int_type(ch, traits_type::eof()))
        return traits_type::not_eof(ch);
    pending_ += traits_type::to_char_type(ch);
    return pass(false) ? ch : traits_type::eof();
}

std::streamsize EscapingStreambuf::xsputn(const char* s, std::streamsize n) {
    pending_.append(s, static_cast<std::size_t>(n));
    return pass(false) ? n : 0;
}

int EscapingStreambuf::sync() {
    return sink_->pubsync();
}

EscapedStandardStreams::EscapedStandardStreams()
    : coutSink_(std::cout.rdbuf()), cerrSink_(std::cerr.rdbuf()), out_(coutSink_), err_(cerrSink_) {
    std::cout.rdbuf(&out_);
    std::cerr.rdbuf(&err_);
}

EscapedStandardStreams::~EscapedStandardStreams() {
    std::cout.flush();
    std::cerr.flush();
    std::cout.rdbuf(coutSink_);
    std::cerr.rdbuf(cerrSink_);
}

} // namespace lb::cli
