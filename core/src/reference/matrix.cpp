#include "attention/reference/matrix.h"

namespace attn {

Matrix matrix_from_rows(const std::vector<std::vector<float>>& rows) {
  Matrix m(rows.size(), rows.empty() ? 0 : rows.front().size());
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (std::size_t c = 0; c < m.cols && c < rows[r].size(); ++c) m.at(r, c) = rows[r][c];
  return m;
}

}  // namespace attn
