// What the dataset writer (dataset.cc), reader (dataset_read.cc) and LC25's test words
// (dataset_lc25.cc) share. Internal to automata/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "automata/dfa.hh"

namespace ltlkit::automata::dataset_detail {

// The first line of a TSV split file: its column names.
std::string tsv_header(bool pairs);
// Whether the DFA accepts w (the labels written and checked).
bool dfa_accepts(const Dfa& d, const Word& w);
// The states of w's prefixes (prefix[i] = δ(initial, w[0..i))) and the suffix acceptance table
// good[i * S + q] = δ(q, w[i..n)) is accepting, O(n·S): which single-symbol edits change the label.
void edit_tables(const Dfa& dfa, const Word& w, std::vector<State>& prefix, std::vector<std::uint8_t>& good);

}  // namespace ltlkit::automata::dataset_detail
