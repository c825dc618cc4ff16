// Every number the article prints, transcribed from its text, and the comparison with what the
// core computes. The transcription is the oracle: a change in the core that moves any printed
// digit makes check_claims() report it.
#include "attention/article/article_claims.h"

#include <cmath>
#include <string>

#include "attention/article/article_data.h"
#include "attention/article/next_word.h"
#include "attention/reference/trace.h"
#include "json/decimal_text.h"

namespace attn::article {

std::string format_like(double value, const std::string& printed) {
  if (printed == "-inf")
    return std::isinf(value) && value < 0 ? "-inf" : json::format_fixed(value, 6);  // as "%f"
  const bool percent = !printed.empty() && printed.back() == '%';
  const std::string digits = percent ? printed.substr(0, printed.size() - 1) : printed;
  const std::size_t point = digits.find('.');
  const int decimals = point == std::string::npos ? 0 : static_cast<int>(digits.size() - point - 1);
  std::string text = json::format_fixed(percent ? value * 100.0 : value, decimals);
  // A value that rounds to zero reads as zero, whatever its sign.
  if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
  return percent ? text + "%" : text;
}

namespace {

const char* const token_names[] = {"the", "cat"};

class ClaimList {
 public:
  void add(std::string what, std::string printed, double value) {
    ClaimCheck check;
    check.what = std::move(what);
    check.computed = format_like(value, printed);
    check.printed = std::move(printed);
    check.matches = check.computed == check.printed;
    checks_.push_back(std::move(check));
  }

  // A printed table: rows of the article's text against the same rows of a computed matrix.
  template <std::size_t Cols>
  void add_table(const std::string& table, const char* const (&printed)[2][Cols],
                 const Matrix& computed) {
    for (std::size_t r = 0; r < 2; ++r)
      for (std::size_t c = 0; c < Cols; ++c)
        add(table + " [" + token_names[r] + "][" + std::to_string(c) + "]", printed[r][c],
            computed.at(r, c));
  }

  std::vector<ClaimCheck> take() { return std::move(checks_); }

 private:
  std::vector<ClaimCheck> checks_;
};

}  // namespace

std::vector<ClaimCheck> check_claims() {
  const Trace two = compute_trace(two_words());
  const Trace four = compute_trace(four_words());
  const NextWordScores next = score_next_word(two.out.row(1), vocabulary());
  ClaimList claims;

  // The inputs, as the article's Q, K and V tables print them.
  const char* const q[2][4] = {{"0.300", "-0.200", "0.500", "0.100"},
                               {"1.100", "-0.800", "0.200", "0.300"}};
  const char* const k[2][4] = {{"-0.400", "-0.300", "0.200", "1.200"},
                               {"1.600", "-0.700", "-0.400", "-0.500"}};
  const char* const v[2][4] = {{"-0.500", "-0.400", "0.100", "1.100"},
                               {"1.200", "-0.300", "-0.200", "-0.600"}};
  claims.add_table("Q", q, two.q);
  claims.add_table("K", k, two.k);
  claims.add_table("V", v, two.v);

  // Step 1: the two worked dot products of cat's query, term by term.
  const char* const cat_cat_terms[] = {"1.76", "0.56", "-0.08", "-0.15"};
  const char* const cat_the_terms[] = {"-0.44", "0.24", "0.04", "0.36"};
  for (std::size_t c = 0; c < 4; ++c) {
    claims.add("step 1: q_cat . k_cat term " + std::to_string(c), cat_cat_terms[c],
               two.score_term(1, 1, c));
    claims.add("step 1: q_cat . k_the term " + std::to_string(c), cat_the_terms[c],
               two.score_term(1, 0, c));
  }
  claims.add("step 1: q_cat . k_cat", "2.09", two.scores.at(1, 1));
  claims.add("step 1: q_cat . k_the", "0.20", two.scores.at(1, 0));
  const char* const scores[2][2] = {{"0.160", "0.370"}, {"0.200", "2.090"}};
  claims.add_table("step 1: scores", scores, two.scores);

  // Step 2: the divisor and the scaled table.
  claims.add("step 2: sqrt(d_k)", "2", two.scale_divisor);
  const char* const scaled[2][2] = {{"0.080", "0.185"}, {"0.100", "1.045"}};
  claims.add_table("step 2: scaled", scaled, two.scaled);

  // Step 3: the masked table, -inf above the diagonal, and e^-inf = 0.
  const char* const masked[2][2] = {{"0.080", "-inf"}, {"0.100", "1.045"}};
  claims.add_table("step 3: masked", masked, two.masked);
  claims.add("step 3: e^-inf of the masked cell", "0", two.exponentials.at(0, 1));

  // Step 4: softmax of the cat row.
  claims.add("step 4: e^0.100", "1.1052", two.exponentials.at(1, 0));
  claims.add("step 4: e^1.045", "2.8434", two.exponentials.at(1, 1));
  claims.add("step 4: total", "3.9486", two.row_totals[1]);
  claims.add("step 4: weight cat -> the", "0.2799", two.weights.at(1, 0));
  claims.add("step 4: weight cat -> cat", "0.7201", two.weights.at(1, 1));
  claims.add("step 4: sum of the weights", "1.0000", two.weight_sums[1]);
  claims.add("step 4: cat's share to itself", "72%", two.weights.at(1, 1));
  claims.add("step 4: cat's share to the", "28%", two.weights.at(1, 0));

  // Step 5: the weighted value rows and out[cat], at 4 and at 3 decimals.
  const char* const weighted[2][4] = {{"-0.1399", "-0.1120", "0.0280", "0.3079"},
                                      {"0.8641", "-0.2160", "-0.1440", "-0.4321"}};
  const char* const out4[] = {"0.7242", "-0.3280", "-0.1160", "-0.1242"};
  const char* const out3[] = {"0.724", "-0.328", "-0.116", "-0.124"};
  for (std::size_t j = 0; j < 2; ++j)
    for (std::size_t c = 0; c < 4; ++c)
      claims.add(std::string("step 5: weight x V[") + token_names[j] + "][" + std::to_string(c) + "]",
                 weighted[j][c], two.weighted_value(1, j, c));
  for (std::size_t c = 0; c < 4; ++c) {
    claims.add("step 5: out[cat][" + std::to_string(c) + "]", out4[c], two.out.at(1, c));
    claims.add("step 5: out[cat][" + std::to_string(c) + "] as walked out", out3[c], two.out.at(1, c));
  }

  // Step 6, the demonstration: "sat" takes 55 %.
  claims.add("step 6: probability of sat", "55%", next.probabilities[0]);

  // The four-word grid: row 2 ("cat") splits 0.784 / 0.216, where ours split 0.28 / 0.72.
  claims.add("grid: cat -> the", "0.784", four.weights.at(1, 0));
  claims.add("grid: cat -> cat", "0.216", four.weights.at(1, 1));
  claims.add("grid: our cat -> the, for comparison", "0.28", two.weights.at(1, 0));
  claims.add("grid: our cat -> cat, for comparison", "0.72", two.weights.at(1, 1));

  return claims.take();
}

}  // namespace attn::article
