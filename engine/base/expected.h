// Errors as values: Expected<T> holds either a T or an Error a user can act on.
// (std::expected is C++23; this is the small subset the project needs.)
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace lb {

enum class ErrorKind {
    BadInput, // the user's input is wrong: exit status 2
    Runtime,  // the environment failed us (tool missing, I/O, database): exit status 1
};

struct Error {
    ErrorKind kind = ErrorKind::Runtime;
    std::string message;

    static Error badInput(std::string msg) { return {ErrorKind::BadInput, std::move(msg)}; }
    static Error runtime(std::string msg) { return {ErrorKind::Runtime, std::move(msg)}; }
    bool operator==(const Error&) const = default;
};

struct Unexpected {
    Error error;
};

inline Unexpected fail(Error e) {
    return Unexpected{std::move(e)};
}
inline Unexpected badInput(std::string msg) {
    return Unexpected{Error::badInput(std::move(msg))};
}
inline Unexpected runtimeError(std::string msg) {
    return Unexpected{Error::runtime(std::move(msg))};
}

template <typename T> class [[nodiscard]] Expected {
public:
    Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    Expected(Unexpected u) : v_(std::in_place_index<1>, std::move(u.error)) {}

    bool has_value() const { return v_.index() == 0; }
    explicit operator bool() const { return has_value(); }

    T& value() & {
        assert(has_value());
        return std::get<0>(v_);
    }
    const T& value() const& {
        assert(has_value());
        return std::get<0>(v_);
    }
    T&& value() && {
        assert(has_value());
        return std::get<0>(std::move(v_));
    }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    const Error& error() const {
        assert(!has_value());
        return std::get<1>(v_);
    }

private:
    std::variant<T, Error> v_;
};

template <> class [[nodiscard]] Expected<void> {
public:
    Expected() = default;
    Expected(Unexpected u) : error_(std::move(u.error)), ok_(false) {}
    bool has_value() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const Error& error() const {
        assert(!ok_);
        return error_;
    }

private:
    Error error_;
    bool ok_ = true;
};

} // namespace lb

// Propagation: the error of a failed Expected becomes the caller's, whatever its value type.
//
//   LB_TRY(disks, parseDisks(text));   // declares `disks` from an Expected<T>, or returns
//   LB_TRY_VOID(store.finishRun(run)); // returns the error of a failed Expected<void>
//
// Usable in any function that returns an Expected<U>.
#define LB_TRY_CONCAT_(a, b) a##b
#define LB_TRY_NAME_(line) LB_TRY_CONCAT_(lb_try_result_, line)
#define LB_TRY(var, expr)                                                                          \
    auto LB_TRY_NAME_(__LINE__) = (expr);                                                          \
    if (!LB_TRY_NAME_(__LINE__))                                                                   \
        return ::lb::fail(LB_TRY_NAME_(__LINE__).error());                                         \
    auto var = std::move(*LB_TRY_NAME_(__LINE__))
#define LB_TRY_VOID(expr)                                                                          \
    do {                                                                                           \
        if (auto lb_try_result_ = (expr); !lb_try_result_)                                         \
            return ::lb::fail(lb_try_result_.error());                                             \
    } while (false)
