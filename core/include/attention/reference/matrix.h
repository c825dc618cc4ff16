// A dense row-major float matrix: the one container every table of the walkthrough uses.
#pragma once

#include <cstddef>
#include <vector>

namespace attn {

struct Matrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<float> values;  // [rows][cols], row-major

  Matrix() = default;
  Matrix(std::size_t row_count, std::size_t col_count, float fill = 0.0f)
      : rows(row_count), cols(col_count), values(row_count * col_count, fill) {}

  float& at(std::size_t row, std::size_t col) { return values[row * cols + col]; }
  float at(std::size_t row, std::size_t col) const { return values[row * cols + col]; }
  float* row(std::size_t r) { return values.data() + r * cols; }
  const float* row(std::size_t r) const { return values.data() + r * cols; }
};

// Rows of plain vectors, as written in the article's data and in JSON input.
Matrix matrix_from_rows(const std::vector<std::vector<float>>& rows);

}  // namespace attn
