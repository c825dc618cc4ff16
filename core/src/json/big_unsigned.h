// An unsigned integer of up to 96 limbs of 32 bits, for exact conversions between decimal text
// and binary floating point (decimal_text_read.cpp, decimal_text_write.cpp). It has only the
// operations those need, each a single pass over the limbs in use: multiply by a small factor,
// multiply by a power of five, shift, divide by a small divisor, and read bits.
//
// Why 96 limbs (3 072 bits) are enough: the largest numbers are made when reading, a decimal
// significand of at most 801 digits times at most 5^12 (2 689 bits), or one shifted to divide by
// up to 5^1131 and leave 55 bits of quotient (2 682 bits), and when writing, a 53-bit
// significand times 5^1074 (2 547 bits).
#pragma once

#include <bit>
#include <cstdint>

namespace attn::json::detail {

class BigUnsigned {
 public:
  static constexpr int capacity = 96;  // limbs

  explicit BigUnsigned(std::uint64_t value) {
    limbs_[0] = static_cast<std::uint32_t>(value);
    limbs_[1] = static_cast<std::uint32_t>(value >> 32);
    size_ = 2;
    trim();
  }

  bool is_zero() const { return size_ == 0; }

  // this = this · factor + addend.
  void multiply_add(std::uint32_t factor, std::uint32_t addend) {
    std::uint64_t carry = addend;
    for (int n = 0; n < size_; ++n) {
      const std::uint64_t product = std::uint64_t{limbs_[n]} * factor + carry;
      limbs_[n] = static_cast<std::uint32_t>(product);
      carry = product >> 32;
    }
    if (carry != 0) limbs_[size_++] = static_cast<std::uint32_t>(carry);
  }

  // this = this · 5^exponent, in steps of 5^13, the largest power of five below 2^32.
  void multiply_by_power_of_five(int exponent) {
    for (; exponent >= 13; exponent -= 13) multiply_add(power_of_five(13), 0);
    if (exponent > 0) multiply_add(power_of_five(exponent), 0);
  }

  // this = this · 2^bits.
  void shift_left(int bits) {
    if (size_ == 0 || bits <= 0) return;
    const int whole = bits / 32, part = bits % 32;
    if (part == 0) {
      for (int n = size_ - 1; n >= 0; --n) limbs_[n + whole] = limbs_[n];
    } else {
      limbs_[size_ + whole] = limbs_[size_ - 1] >> (32 - part);
      for (int n = size_ - 1; n > 0; --n)
        limbs_[n + whole] = (limbs_[n] << part) | (limbs_[n - 1] >> (32 - part));
      limbs_[whole] = limbs_[0] << part;
    }
    for (int n = 0; n < whole; ++n) limbs_[n] = 0;
    size_ += whole + (part != 0);
    trim();
  }

  // this = this / 2^bits, rounded down; returns whether a bit set was dropped.
  bool shift_right(int bits) {
    if (bits <= 0) return false;
    const bool dropped = any_below(bits);
    const int whole = bits / 32, part = bits % 32;
    if (whole >= size_) {
      size_ = 0;
      return dropped;
    }
    for (int n = 0; n + whole < size_; ++n) {
      const std::uint32_t high = part == 0 ? 0 : limb_at(n + whole + 1) << (32 - part);
      limbs_[n] = (limbs_[n + whole] >> part) | high;
    }
    size_ -= whole;
    trim();
    return dropped;
  }

  // this = this / divisor, rounded down; returns the remainder.
  std::uint32_t divide(std::uint32_t divisor) {
    std::uint64_t remainder = 0;
    for (int n = size_ - 1; n >= 0; --n) {
      const std::uint64_t current = (remainder << 32) | limbs_[n];
      limbs_[n] = static_cast<std::uint32_t>(current / divisor);
      remainder = current % divisor;
    }
    trim();
    return static_cast<std::uint32_t>(remainder);
  }

  int bit_length() const {
    return size_ == 0 ? 0 : 32 * (size_ - 1) + std::bit_width(limbs_[size_ - 1]);
  }

  // The `count` bits (at most 64) from bit `from` (0 is the lowest) up; bits above the top
  // read as zero.
  std::uint64_t bits(int from, int count) const {
    const int limb = from / 32, offset = from % 32;
    const std::uint64_t low = limb_at(limb) | std::uint64_t{limb_at(limb + 1)} << 32;
    std::uint64_t value = low >> offset;
    if (offset != 0) value |= std::uint64_t{limb_at(limb + 2)} << (64 - offset);
    return count >= 64 ? value : value & ((std::uint64_t{1} << count) - 1);
  }

  // Whether any bit below bit `position` is set.
  bool any_below(int position) const {
    const int limb = position / 32, offset = position % 32;
    for (int n = 0; n < limb && n < size_; ++n)
      if (limbs_[n] != 0) return true;
    return offset != 0 && (limb_at(limb) & ((std::uint32_t{1} << offset) - 1)) != 0;
  }

  // 5^exponent and 10^exponent, for exponents up to 13 and 9.
  static constexpr std::uint32_t power_of_five(int exponent) { return power_of(5, exponent); }
  static constexpr std::uint32_t power_of_ten(int exponent) { return power_of(10, exponent); }

 private:
  static constexpr std::uint32_t power_of(std::uint32_t base, int exponent) {
    std::uint32_t power = 1;
    for (int n = 0; n < exponent; ++n) power *= base;
    return power;
  }

  std::uint32_t limb_at(int n) const { return n < size_ ? limbs_[n] : 0; }

  void trim() {
    while (size_ > 0 && limbs_[size_ - 1] == 0) --size_;
  }

  std::uint32_t limbs_[capacity];  // least significant first; only the first size_ are set
  int size_ = 0;
};

}  // namespace attn::json::detail
