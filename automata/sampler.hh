// Exact uniform sampling of words of a given length and label from a DFA (count DP over
// (state, remaining length)), used by the dataset generator and by training (docs/PROTOCOL.md,
// "Training" and "Evaluation").
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "automata/dfa.hh"
#include "automata/random.hh"

namespace ltlkit::automata {

// Default of --max-table-cells: 8-byte cells of the count tables (about 2 GB).
inline constexpr std::size_t kDefaultMaxTableCells = 250'000'000;
// The limit create() applies when it is given none: kDefaultMaxTableCells until a command's
// --max-table-cells sets it for the process (train, eval and verify build samplers deep inside).
std::size_t default_max_table_cells();
void set_default_max_table_cells(std::size_t cells);

class Sampler {
public:
    // 8-byte cells the tables for lengths 0..max_length need: the sampling table (2 labels ×
    // (max_length + 1) lengths × states × symbols), the liveness bits and the exact counts (big
    // integers, for meta.json).
    static double table_cells(const Dfa& d, std::size_t max_length);
    // A limit error naming --max-table-cells when table_cells(d, max_length) > max_cells.
    static Result<bool> check_table_cells(const Dfa& d, std::size_t max_length, std::size_t max_cells);

    // Count tables for lengths 0..max_length. Fails (exit 3, naming --max-table-cells) when they
    // would exceed max_table_cells cells (0: default_max_table_cells()).
    static Result<Sampler> create(const Dfa& d, std::size_t max_length, std::size_t max_table_cells = 0);

    const Dfa& dfa() const;
    std::size_t max_length() const;

    // Number of words of length n with the label (accepted = true), as an exact decimal string,
    // and as a double (may be +inf for huge counts when the double route is used).
    std::string count_exact(std::size_t n, bool label) const;
    double count(std::size_t n, bool label) const;
    bool has_words(std::size_t n, bool label) const;
    // True when at least `at_least` words of length n with the label exist.
    bool has_at_least(std::size_t n, bool label, std::uint64_t at_least) const;

    // A word drawn uniformly among the words of length n with the label. Precondition: has_words.
    Word sample(std::size_t n, bool label, Rng& rng) const;

    // All words of length n with the label, in lexicographic order (symbol indices); only call
    // when the count is small.
    std::vector<Word> enumerate(std::size_t n, bool label, std::size_t limit) const;

    // "exact" (big integers) or "log-double"; recorded in meta.json.
    std::string count_method() const;

    Sampler(Sampler&&) noexcept;
    Sampler& operator=(Sampler&&) noexcept;
    ~Sampler();

private:
    struct Impl;
    explicit Sampler(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace ltlkit::automata
