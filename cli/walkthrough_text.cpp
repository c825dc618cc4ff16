#include "walkthrough_text.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "attention/article/article_data.h"
#include "attention/article/next_word.h"
#include "attention/reference/trace.h"

namespace attn::cli {

namespace {

std::string fixed(double value, int decimals) {
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string pad_left(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string pad_right(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

void print_table(std::ostream& out, const std::string& title,
                 const std::vector<std::string>& col_labels,
                 const std::vector<std::string>& row_labels, const Matrix& m, int decimals) {
  constexpr std::size_t label_width = 28, cell_width = 9;
  out << pad_right(title, label_width);
  for (const std::string& label : col_labels) out << pad_left(label, cell_width);
  out << '\n';
  for (std::size_t r = 0; r < m.rows; ++r) {
    out << pad_right("  " + row_labels[r], label_width);
    for (std::size_t c = 0; c < m.cols; ++c) out << pad_left(fixed(m.at(r, c), decimals), cell_width);
    out << '\n';
  }
  out << '\n';
}

std::vector<std::string> numbered(const char* prefix, std::size_t count) {
  std::vector<std::string> labels;
  for (std::size_t c = 0; c < count; ++c) labels.push_back(prefix + std::to_string(c));
  return labels;
}

// "(1.100 × 1.600) + (-0.800 × -0.700) + ... = 1.76 + 0.56 - 0.08 - 0.15 = 2.09"
void print_dot_product(std::ostream& out, const Trace& t, std::size_t i, std::size_t j) {
  out << "q_" << t.tokens[i] << " . k_" << t.tokens[j] << " = ";
  for (std::size_t c = 0; c < t.head_dim; ++c)
    out << (c ? " + " : "") << "(" << fixed(t.q.at(i, c), 3) << " x " << fixed(t.k.at(j, c), 3) << ")";
  out << "\n      = ";
  for (std::size_t c = 0; c < t.head_dim; ++c) {
    const float term = t.score_term(i, j, c);
    if (c == 0) out << fixed(term, 2);
    else out << (term < 0 ? " - " : " + ") << fixed(std::fabs(term), 2);
  }
  out << " = " << fixed(t.scores.at(i, j), 2) << "\n\n";
}

void print_softmax_row(std::ostream& out, const Trace& t, std::size_t i) {
  for (std::size_t j = 0; j < t.token_count; ++j) {
    if (!is_visible(t.mask, i, j)) continue;
    const std::string exponent = t.row_shifted[i]
                                     ? "e^(" + fixed(t.masked.at(i, j), 3) + " - " + fixed(t.row_max[i], 3) + ")"
                                     : "e^" + fixed(t.masked.at(i, j), 3);
    out << "  " << pad_right(exponent, 22) << " = " << pad_left(fixed(t.exponentials.at(i, j), 4), 9)
        << "    " << fixed(t.exponentials.at(i, j), 4) << " / " << fixed(t.row_totals[i], 4)
        << " = " << fixed(t.weights.at(i, j), 4) << "  (" << t.tokens[j] << ")\n";
  }
  out << "  " << pad_right("total", 22) << " = " << pad_left(fixed(t.row_totals[i], 4), 9)
      << "    sum of weights = " << fixed(t.weight_sums[i], 4) << "\n";
  if (t.row_shifted[i])
    out << "  (e^x would overflow a float here, so this row subtracts its max first)\n";
  out << '\n';
}

}  // namespace

void print_walkthrough(std::ostream& out) {
  const Trace t = compute_trace(article::two_words());
  const std::size_t last = t.token_count - 1;
  const auto d_labels = [&](const char* prefix) { return numbered(prefix, t.head_dim); };

  out << "Attention, step by step: one head, head_dim " << t.head_dim << ", "
      << mask_name(t.mask) << " mask, on \"the cat\"\n\n";
  print_table(out, "Q  what each word asks", d_labels("q"), t.tokens, t.q, 3);
  print_table(out, "K  what each word offers", d_labels("k"), t.tokens, t.k, 3);
  print_table(out, "V  what each word gives", d_labels("v"), t.tokens, t.v, 3);

  out << "Step 1: score (dot each query with each key)\n\n";
  for (std::size_t j = t.token_count; j-- > 0;) print_dot_product(out, t, last, j);
  print_table(out, "scores", t.tokens, t.tokens, t.scores, 3);

  out << "Step 2: scale (divide by sqrt(d_k) = " << fixed(t.scale_divisor, 0) << ")\n\n";
  print_table(out, "scaled", t.tokens, t.tokens, t.scaled, 3);

  out << "Step 3: mask (a word cannot see the words after it)\n\n";
  print_table(out, "masked", t.tokens, t.tokens, t.masked, 3);

  out << "Step 4: softmax of the " << t.tokens[last] << " row\n\n";
  print_softmax_row(out, t, last);

  out << "Step 5: mix (spend the weights on the value rows)\n\n";
  for (std::size_t j = 0; j < t.token_count; ++j) {
    if (!is_visible(t.mask, last, j)) continue;
    out << "  " << pad_right(fixed(t.weights.at(last, j), 4) + " x V[" + t.tokens[j] + "]", 22) << " =";
    for (std::size_t c = 0; c < t.head_dim; ++c) out << pad_left(fixed(t.weighted_value(last, j, c), 4), 9);
    out << '\n';
  }
  out << "  " << pad_right("out[" + t.tokens[last] + "]", 22) << " =";
  for (std::size_t c = 0; c < t.head_dim; ++c) out << pad_left(fixed(t.out.at(last, c), 4), 9);
  out << "\n\n";

  const article::Vocabulary vocab = article::vocabulary();
  const NextWordScores next = score_next_word(t.out.row(last), vocab);
  out << "Step 6 (a demonstration, not attention): score out[" << t.tokens[last]
      << "] against a three-word vocabulary\n\n";
  for (std::size_t w = 0; w < vocab.words.size(); ++w)
    out << "  " << pad_right(vocab.words[w], 8) << " score " << pad_left(fixed(next.logits[w], 4), 8)
        << "   probability " << pad_left(fixed(next.probabilities[w], 4), 7) << "  ("
        << fixed(next.probabilities[w] * 100.0, 0) << "%)\n";
  out << '\n';

  const Trace grid = compute_trace(article::four_words());
  out << "The causal mask on four words, \"the cat sat on\" (our own Q, K, V): weights\n\n";
  print_table(out, "weights (-inf cells get 0)", grid.tokens, grid.tokens, grid.weights, 3);
  for (std::size_t row : article::four_words_worked_rows()) {
    out << "Row \"" << grid.tokens[row] << "\":\n";
    print_softmax_row(out, grid, row);
  }
}

}  // namespace attn::cli
