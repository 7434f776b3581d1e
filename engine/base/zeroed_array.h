// An array of trivially copyable values, zeroed. Past a huge page (2 MiB on x86-64) it is mapped
// for itself alone and asked of the kernel in huge pages where it gives them: a table probed at
// random, tens of MiB large, otherwise misses the TLB on most probes and faults a page in at every
// 4 KiB. Smaller, it comes from the heap (calloc): a map and an unmap for each of an import's
// 10,000 small tables (one a file) made the import 1.4 times as slow. Zero must be a value the
// user can read as "unset". Huge pages are Linux's; elsewhere the pages are ordinary ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <sys/mman.h>
#include <type_traits>
#include <utility>

namespace lb {

template <typename T> class ZeroedArray {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    ZeroedArray() = default;
    explicit ZeroedArray(std::size_t size) : size_(size) {
        if (size == 0)
            return;
        const std::size_t wanted = size * sizeof(T);
        if (wanted < hugePage) {
            base_ = std::calloc(size, sizeof(T));
            if (!base_)
                throw std::bad_alloc();
            data_ = static_cast<T*>(base_);
            return;
        }
        bytes_ = wanted + hugePage; // room to start on a huge page's boundary
        void* base =
            mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED)
            throw std::bad_alloc();
        base_ = base;
        auto start = reinterpret_cast<std::uintptr_t>(base);
        start = (start + hugePage - 1) & ~(std::uintptr_t{hugePage} - 1);
#ifdef MADV_HUGEPAGE
        // Only advice: without huge pages the array works the same, slower.
        (void)madvise(reinterpret_cast<void*>(start), wanted, MADV_HUGEPAGE);
#endif
        data_ = reinterpret_cast<T*>(start);
    }
    ZeroedArray(ZeroedArray&& other) noexcept {
        swap(other);
    }
    ZeroedArray& operator=(ZeroedArray&& other) noexcept {
        ZeroedArray(std::move(other)).swap(*this);
        return *this;
    }
    ZeroedArray(const ZeroedArray&) = delete;
    ZeroedArray& operator=(const ZeroedArray&) = delete;
    ~ZeroedArray() {
        if (base_ && bytes_ > 0)
            munmap(base_, bytes_);
        else
            std::free(base_); // from calloc (bytes_ 0), or none
    }

    std::size_t size() const {
        return size_;
    }
    T& operator[](std::size_t i) {
        return data_[i];
    }
    const T& operator[](std::size_t i) const {
        return data_[i];
    }

private:
    static constexpr std::size_t hugePage = std::size_t{2} << 20;
    void swap(ZeroedArray& other) noexcept {
        std::swap(base_, other.base_);
        std::swap(bytes_, other.bytes_);
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
    }
    void* base_ = nullptr;
    std::size_t bytes_ = 0; // of the mapping; 0 when base_ is calloc's
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

} // namespace lb
