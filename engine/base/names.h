// Closed sets of words as enums. Each enum states its names once, in a table (a specialisation of
// EnumNames); the name of a value, the value of a name and the list shown in messages all come
// from that table, so no word is compared as text anywhere else.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace lb {

// Specialise with `static constexpr std::array<std::pair<E, std::string_view>, N> table`.
template <typename E> struct EnumNames;

template <typename E> constexpr std::string_view enumName(E value) {
    for (const auto& [v, name] : EnumNames<E>::table)
        if (v == value)
            return name;
    return {};
}

template <typename E> constexpr std::optional<E> enumFromName(std::string_view name) {
    for (const auto& [v, n] : EnumNames<E>::table)
        if (n == name)
            return v;
    return std::nullopt;
}

// "qemu, libvirt, xen": the names in the table's order, for messages.
template <typename E> std::string enumNameList() {
    std::string out;
    for (const auto& [v, name] : EnumNames<E>::table)
        out += (out.empty() ? "" : ", ") + std::string(name);
    return out;
}

} // namespace lb
