// The article's numbers: every value it prints is reproduced by the core, the two-word trace
// agrees with an independent float64 computation, and the four-word and vocabulary examples
// say what the article says about them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "attention/article/article_claims.h"
#include "attention/article/article_data.h"
#include "attention/reference/attention_input.h"
#include "attention/article/next_word.h"
#include "attention/reference/trace.h"
#include "reference_f64.h"
#include "test_inputs.h"

namespace {

using attn::article::format_like;

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// "-0.00" and "0.00" read as the same number; everything else must be the same text.
std::string as_read(std::string text) {
  if (!text.empty() && text[0] == '-' &&
      text.find_first_not_of("0.%", 1) == std::string::npos)
    text.erase(0, 1);
  return text;
}

const std::size_t the = 0;
const std::size_t cat = 1;

}  // namespace

TEST_CASE("article claims: every printed number is reproduced", "[golden]") {
  const std::vector<attn::article::ClaimCheck> claims = attn::article::check_claims();
  REQUIRE(claims.size() > 40);
  for (const auto& claim : claims) {
    INFO(claim.what << ": printed " << claim.printed << ", computed " << claim.computed);
    CHECK_FALSE(claim.what.empty());
    CHECK_FALSE(claim.printed.empty());
    CHECK(claim.matches);
    // `matches` must mean what it says: the computed text reads as the printed one.
    CHECK(as_read(claim.computed) == as_read(claim.printed));
  }
}

TEST_CASE("article claims: the list covers the walkthrough's key numbers", "[golden]") {
  const auto claims = attn::article::check_claims();
  const auto printed = [&](const std::string& text) {
    return std::any_of(claims.begin(), claims.end(),
                       [&](const attn::article::ClaimCheck& c) { return c.printed == text; });
  };
  for (const char* text : {"2.09", "0.20", "0.185", "1.045", "-inf", "1.1052", "2.8434", "3.9486",
                           "0.2799", "0.7201", "0.7242", "-0.1242", "72%", "28%", "0.784", "0.216",
                           "55%"}) {
    INFO("the article prints " << text);
    CHECK(printed(text));
  }
}

TEST_CASE("format_like: decimals and percent and infinity as the article prints them", "[golden]") {
  CHECK(format_like(0.27989147, "0.2799") == "0.2799");
  CHECK(format_like(0.27989147, "0.28") == "0.28");
  CHECK(format_like(2.0900001, "2.09") == "2.09");
  CHECK(format_like(2.0900001, "2.090") == "2.090");
  CHECK(format_like(-0.43999999, "-0.44") == "-0.44");
  CHECK(format_like(0.72010853, "72%") == "72%");
  CHECK(format_like(0.27989147, "28%") == "28%");
  CHECK(format_like(0.5512, "55%") == "55%");
  CHECK(format_like(2.0, "2") == "2");
  CHECK(format_like(-INFINITY, "-inf") == "-inf");
  // A different value must format differently, or the claims could not fail.
  CHECK(format_like(0.2801, "0.2799") == "0.2801");
  CHECK(format_like(0.7301, "72%") == "73%");
  CHECK(format_like(1.0, "-inf") != "-inf");
}

TEST_CASE("two words: the trace agrees with float64 within 1e-6", "[golden]") {
  const attn::AttentionInput input = attn::article::two_words();
  REQUIRE(attn_test::validation_error(input) == "");
  REQUIRE(input.tokens == std::vector<std::string>{"the", "cat"});
  REQUIRE(input.mask == attn::MaskKind::causal);
  const attn::Trace trace = attn::compute_trace(input);
  const attn_test::ReferenceF64 ref = attn_test::reference_attention_f64(input);

  REQUIRE(trace.token_count == 2);
  REQUIRE(trace.head_dim == 4);
  CHECK(trace.scale_divisor == 2.0f);
  const double tolerance = 1e-6;
  for (std::size_t i = 0; i < 2; ++i) {
    for (std::size_t j = 0; j < 2; ++j) {
      INFO("row " << i << ", column " << j);
      CHECK(std::fabs(trace.scores.at(i, j) - ref.score(i, j)) <= tolerance);
      CHECK(std::fabs(trace.scaled.at(i, j) - ref.scaled_score(i, j)) <= tolerance);
      if (std::isinf(ref.masked_score(i, j))) {
        CHECK(trace.masked.at(i, j) == -INFINITY);
      } else {
        CHECK(std::fabs(trace.masked.at(i, j) - ref.masked_score(i, j)) <= tolerance);
        // Unshifted, as the article prints them: e^0.100 = 1.1052.
        CHECK(std::fabs(trace.exponentials.at(i, j) - std::exp(ref.masked_score(i, j))) <=
              tolerance);
      }
      CHECK(std::fabs(trace.weights.at(i, j) - ref.weight(i, j)) <= tolerance);
    }
    CHECK(trace.row_shifted[i] == 0);
    double total = 0.0;
    for (std::size_t j = 0; j <= i; ++j) total += std::exp(ref.masked_score(i, j));
    CHECK(std::fabs(trace.row_totals[i] - total) <= tolerance);
    for (std::size_t c = 0; c < 4; ++c) {
      INFO("out row " << i << ", component " << c);
      CHECK(std::fabs(trace.out.at(i, c) - ref.output(i, c)) <= tolerance);
    }
  }
}

TEST_CASE("two words: the printed tables formatted from the trace", "[golden]") {
  const attn::Trace t = attn::compute_trace(attn::article::two_words());
  struct Printed {
    double value;
    const char* printed;
    int decimals;
    const char* what;
  };
  const std::vector<Printed> table = {
      {t.score_term(cat, cat, 0), "1.76", 2, "1.100 x 1.600"},
      {t.score_term(cat, cat, 1), "0.56", 2, "-0.800 x -0.700"},
      {t.score_term(cat, cat, 2), "-0.08", 2, "0.200 x -0.400"},
      {t.score_term(cat, cat, 3), "-0.15", 2, "0.300 x -0.500"},
      {t.score_term(cat, the, 0), "-0.44", 2, "1.100 x -0.400"},
      {t.score_term(cat, the, 1), "0.24", 2, "-0.800 x -0.300"},
      {t.score_term(cat, the, 2), "0.04", 2, "0.200 x 0.200"},
      {t.score_term(cat, the, 3), "0.36", 2, "0.300 x 1.200"},
      {t.scores.at(cat, cat), "2.09", 2, "q_cat . k_cat"},
      {t.scores.at(cat, the), "0.20", 2, "q_cat . k_the"},
      {t.scores.at(the, the), "0.160", 3, "scores the/the"},
      {t.scores.at(the, cat), "0.370", 3, "scores the/cat"},
      {t.scores.at(cat, the), "0.200", 3, "scores cat/the"},
      {t.scores.at(cat, cat), "2.090", 3, "scores cat/cat"},
      {t.scaled.at(the, the), "0.080", 3, "scaled the/the"},
      {t.scaled.at(the, cat), "0.185", 3, "scaled the/cat"},
      {t.scaled.at(cat, the), "0.100", 3, "scaled cat/the"},
      {t.scaled.at(cat, cat), "1.045", 3, "scaled cat/cat"},
      {t.masked.at(the, the), "0.080", 3, "masked the/the"},
      {t.masked.at(cat, the), "0.100", 3, "masked cat/the"},
      {t.masked.at(cat, cat), "1.045", 3, "masked cat/cat"},
      {t.exponentials.at(cat, the), "1.1052", 4, "e^0.100"},
      {t.exponentials.at(cat, cat), "2.8434", 4, "e^1.045"},
      {t.row_totals[cat], "3.9486", 4, "total"},
      {t.weights.at(cat, the), "0.2799", 4, "1.1052 / 3.9486"},
      {t.weights.at(cat, cat), "0.7201", 4, "2.8434 / 3.9486"},
      {t.weights.at(cat, the) + t.weights.at(cat, cat), "1.0000", 4, "weights total"},
      {t.weighted_value(cat, the, 0), "-0.1399", 4, "0.2799 x V[the] 0"},
      {t.weighted_value(cat, the, 1), "-0.1120", 4, "0.2799 x V[the] 1"},
      {t.weighted_value(cat, the, 2), "0.0280", 4, "0.2799 x V[the] 2"},
      {t.weighted_value(cat, the, 3), "0.3079", 4, "0.2799 x V[the] 3"},
      {t.weighted_value(cat, cat, 0), "0.8641", 4, "0.7201 x V[cat] 0"},
      {t.weighted_value(cat, cat, 1), "-0.2160", 4, "0.7201 x V[cat] 1"},
      {t.weighted_value(cat, cat, 2), "-0.1440", 4, "0.7201 x V[cat] 2"},
      {t.weighted_value(cat, cat, 3), "-0.4321", 4, "0.7201 x V[cat] 3"},
      {t.out.at(cat, 0), "0.7242", 4, "out[cat] 0"},
      {t.out.at(cat, 1), "-0.3280", 4, "out[cat] 1"},
      {t.out.at(cat, 2), "-0.1160", 4, "out[cat] 2"},
      {t.out.at(cat, 3), "-0.1242", 4, "out[cat] 3"},
      {t.out.at(cat, 0), "0.724", 3, "walked out as 0"},
      {t.out.at(cat, 1), "-0.328", 3, "walked out as 1"},
      {t.out.at(cat, 2), "-0.116", 3, "walked out as 2"},
      {t.out.at(cat, 3), "-0.124", 3, "walked out as 3"},
      {t.v.at(cat, 0), "1.200", 3, "walked in as 0"},
      {t.v.at(cat, 3), "-0.600", 3, "walked in as 3"},
  };
  for (const Printed& p : table) {
    INFO(p.what << ": value " << p.value);
    CHECK(fixed(p.value, p.decimals) == p.printed);
    CHECK(format_like(p.value, p.printed) == p.printed);
  }
  CHECK(format_like(t.weights.at(cat, cat), "72%") == "72%");
  CHECK(format_like(t.weights.at(cat, the), "28%") == "28%");
  CHECK(t.masked.at(the, cat) == -INFINITY);
  CHECK(t.weights.at(the, cat) == 0.0f);
  CHECK(t.weights.at(the, the) == 1.0f);
  CHECK(fixed(t.weight_sums[cat], 4) == "1.0000");
  CHECK(t.weight_sums[the] == 1.0f);
}

TEST_CASE("four words: row 1 (cat) splits 0.784 / 0.216 and the worked rows are real",
          "[golden]") {
  const attn::AttentionInput input = attn::article::four_words();
  REQUIRE(attn_test::validation_error(input) == "");
  REQUIRE(input.tokens == std::vector<std::string>{"the", "cat", "sat", "on"});
  REQUIRE(input.mask == attn::MaskKind::causal);
  const attn::Trace trace = attn::compute_trace(input);
  const attn_test::ReferenceF64 ref = attn_test::reference_attention_f64(input);

  CHECK(fixed(trace.weights.at(1, 0), 3) == "0.784");
  CHECK(fixed(trace.weights.at(1, 1), 3) == "0.216");
  CHECK(fixed(ref.weight(1, 0), 3) == "0.784");
  CHECK(fixed(ref.weight(1, 1), 3) == "0.216");

  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      INFO("row " << i << ", column " << j);
      CHECK(std::fabs(trace.weights.at(i, j) - ref.weight(i, j)) <= 1e-6);
    }

  const std::vector<std::size_t> worked = attn::article::four_words_worked_rows();
  CHECK(worked.size() == 2);  // "The two worked rows"
  CHECK(std::find(worked.begin(), worked.end(), std::size_t{1}) != worked.end());
  for (std::size_t row : worked) {
    INFO("worked row " << row);
    REQUIRE(row < 4);
    CHECK(trace.row_shifted[row] == 0);  // worked by hand: e^x, not e^(x - max)
  }
}

TEST_CASE("vocabulary: sat takes 55 % of out cat and is the largest", "[golden]") {
  const attn::Trace trace = attn::compute_trace(attn::article::two_words());
  const attn::article::Vocabulary vocabulary = attn::article::vocabulary();
  REQUIRE(vocabulary.words == std::vector<std::string>{"sat", "ran", "is"});
  REQUIRE(vocabulary.vectors.rows == 3);
  REQUIRE(vocabulary.vectors.cols == trace.head_dim);

  const attn::NextWordScores scores = attn::score_next_word(trace.out.row(cat), vocabulary);
  REQUIRE(scores.probabilities.size() == 3);
  REQUIRE(scores.logits.size() == 3);
  const std::size_t sat = 0;
  CHECK(fixed(scores.probabilities[sat], 2) == "0.55");
  CHECK(format_like(scores.probabilities[sat], "55%") == "55%");
  for (std::size_t w = 1; w < 3; ++w) CHECK(scores.probabilities[w] < scores.probabilities[sat]);

  // Against float64, from the float64 out[cat] rather than the core's.
  const attn_test::ReferenceF64 ref = attn_test::reference_attention_f64(attn::article::two_words());
  std::vector<double> logits;
  for (std::size_t w = 0; w < 3; ++w) {
    double dot = 0.0;
    for (std::size_t c = 0; c < trace.head_dim; ++c)
      dot += ref.output(cat, c) * vocabulary.vectors.at(w, c);
    logits.push_back(dot);
  }
  const std::vector<double> p = attn_test::softmax_f64(logits);
  double total = 0.0;
  for (std::size_t w = 0; w < 3; ++w) {
    INFO("word " << vocabulary.words[w]);
    CHECK(std::fabs(scores.logits[w] - logits[w]) <= 1e-5);
    CHECK(std::fabs(scores.probabilities[w] - p[w]) <= 1e-5);
    total += scores.probabilities[w];
  }
  CHECK(std::fabs(total - 1.0) <= 1e-6);
  CHECK(std::fabs(scores.probability_sum - total) <= 1e-7);
  CHECK(scores.most_likely == sat);
  CHECK_FALSE(scores.shifted);
  double exp_total = 0.0;
  for (std::size_t w = 0; w < 3; ++w) {
    CHECK(std::fabs(scores.exponentials[w] - std::exp(static_cast<double>(scores.logits[w]))) <=
          1e-5 * std::exp(static_cast<double>(scores.logits[w])));
    exp_total += scores.exponentials[w];
  }
  CHECK(std::fabs(scores.total - exp_total) <= 1e-5 * exp_total);
}
