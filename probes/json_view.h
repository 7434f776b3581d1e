// Read-only views of a parsed JSON document, with the one small interface fio_json.cpp reads
// fio's output through: over simdjson's DOM (fio 3.x output as fio wrote it, parsed about 25
// times faster than nlohmann's DOM) and over nlohmann::ordered_json (output fio_json_compat.cpp
// had to rewrite first, and the precise error of malformed JSON). The two answer alike:
// integers are numbers too, an unsigned integer reads as a signed one as nlohmann's get does,
// members and elements come in document order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <simdjson.h>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lb::json_view {

class Nlohmann {
public:
    explicit Nlohmann(const nlohmann::ordered_json& j) : j_(&j) {}

    bool isObject() const { return j_->is_object(); }
    bool isArray() const { return j_->is_array(); }
    bool isString() const { return j_->is_string(); }
    bool isNumber() const { return j_->is_number(); }
    bool isInteger() const { return j_->is_number_integer(); }

    // The member `key` of an object; none when absent or when this is not an object.
    std::optional<Nlohmann> member(std::string_view key) const {
        if (!j_->is_object())
            return std::nullopt;
        const auto it = j_->find(key);
        if (it == j_->end())
            return std::nullopt;
        return Nlohmann(*it);
    }
    double number() const { return j_->get<double>(); }
    std::int64_t integer() const { return j_->get<std::int64_t>(); }
    std::string_view string() const { return j_->get_ref<const std::string&>(); }
    // The value as JSON text, for messages.
    std::string text() const { return j_->dump(); }

    std::vector<Nlohmann> elements() const {
        std::vector<Nlohmann> out;
        out.reserve(j_->size());
        for (const auto& e : *j_)
            out.emplace_back(e);
        return out;
    }
    std::vector<std::pair<std::string_view, Nlohmann>> members() const {
        std::vector<std::pair<std::string_view, Nlohmann>> out;
        for (const auto& [key, value] : j_->items())
            out.emplace_back(key, Nlohmann(value));
        return out;
    }

private:
    const nlohmann::ordered_json* j_;
};

class Simd {
public:
    explicit Simd(simdjson::dom::element e) : e_(e) {}

    bool isObject() const { return e_.is_object(); }
    bool isArray() const { return e_.is_array(); }
    bool isString() const { return e_.is_string(); }
    bool isNumber() const { return e_.is_number(); }
    bool isInteger() const { return e_.is_int64() || e_.is_uint64(); }

    std::optional<Simd> member(std::string_view key) const {
        simdjson::dom::object object;
        simdjson::dom::element value;
        if (e_.get_object().get(object) != simdjson::SUCCESS ||
            object.at_key(key).get(value) != simdjson::SUCCESS)
            return std::nullopt;
        return Simd(value);
    }
    double number() const {
        if (e_.is_uint64())
            return static_cast<double>(e_.get_uint64().value_unsafe());
        if (e_.is_int64())
            return static_cast<double>(e_.get_int64().value_unsafe());
        return e_.get_double().value_unsafe();
    }
    std::int64_t integer() const {
        if (e_.is_uint64())
            return static_cast<std::int64_t>(e_.get_uint64().value_unsafe());
        return e_.get_int64().value_unsafe();
    }
    std::string_view string() const { return e_.get_string().value_unsafe(); }
    std::string text() const { return simdjson::minify(e_); }

    std::vector<Simd> elements() const {
        std::vector<Simd> out;
        const simdjson::dom::array array = e_.get_array().value_unsafe();
        out.reserve(array.size());
        for (simdjson::dom::element e : array)
            out.emplace_back(e);
        return out;
    }
    std::vector<std::pair<std::string_view, Simd>> members() const {
        std::vector<std::pair<std::string_view, Simd>> out;
        const simdjson::dom::object object = e_.get_object().value_unsafe();
        out.reserve(object.size()); // a json+ object of latency bins has a hundred or more
        for (const auto& [key, value] : object)
            out.emplace_back(key, Simd(value));
        return out;
    }

private:
    simdjson::dom::element e_;
};

} // namespace lb::json_view
