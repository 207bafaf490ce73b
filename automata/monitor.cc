// Past-time monitor construction (after Havelund & Roşu, "Synthesizing monitors for safety
// properties", TACAS 2002, with the evaluation at the EOS position of LC25): a state is the
// vector of what every temporal subformula needs at the next position. Reachable states are
// found by BFS over packed bit-vector states in an open-addressing hash table; the result is
// minimized by Hopcroft's algorithm. O(states · |Σ| · |f|) time.
#include "automata/monitor.hh"

#include <algorithm>
#include <cstring>
#include <limits>

#include "automata/algorithms.hh"

namespace ltlkit::automata {

Result<std::vector<std::string>> formula_alphabet(ltl::Formula f,
                                                  const std::vector<std::string>& alphabet) {
    std::vector<std::string> used = ltl::atoms(f);
    if (alphabet.empty()) {
        if (used.empty())
            return make_error(
                "the formula has no symbol, so its alphabet is unknown: give one with --alphabet "
                "(e.g. --alphabet a,b)");
        return used;
    }
    for (const auto& s : used)
        if (std::find(alphabet.begin(), alphabet.end(), s) == alphabet.end()) {
            std::string list;
            for (std::size_t i = 0; i < alphabet.size(); ++i) list += (i ? "," : "") + alphabet[i];
            return make_error("symbol '" + s + "' is not in the alphabet {" + list + "}");
        }
    return alphabet;
}

namespace {

// One instruction of the evaluation program; nodes are in postorder (children first).
struct Instr {
    ltl::Op op;
    std::uint32_t c0 = 0, c1 = 0;  // child node indices
    std::int32_t symbol = -1;      // Atom: index in the alphabet
    std::uint32_t temporal = 0;    // temporal nodes: index into the field table
};

// The state field of a temporal subformula, at `offset` bits. For P, H, Y, S: one bit, the
// subformula's value at the next position. For Y<=k (k ≥ 2): r ∈ 0..k, the number of further
// positions for which Y<=k φ still holds because of the latest position where φ held (so
// Y<=k φ holds at the next position iff r > 0); this is all of the window that matters.
struct Field {
    std::uint32_t node = 0;
    std::uint32_t offset = 0;
    std::uint32_t bits = 1;
    std::uint32_t k = 1;
};

class Monitor {
public:
    Monitor(ltl::Formula f, const std::vector<std::string>& alphabet) {
        const std::vector<ltl::Formula> nodes = ltl::subformulas_postorder(f);
        std::vector<std::uint32_t> index_of_id;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            if (nodes[i].id() >= index_of_id.size()) index_of_id.resize(nodes[i].id() + 1);
            index_of_id[nodes[i].id()] = static_cast<std::uint32_t>(i);
        }
        std::uint32_t offset = 0;
        for (ltl::Formula g : nodes) {
            Instr in;
            in.op = g.op();
            if (g.arity() >= 1) in.c0 = index_of_id[g.child(0).id()];
            if (g.arity() >= 2) in.c1 = index_of_id[g.child(1).id()];
            if (g.op() == ltl::Op::Atom) {
                auto it = std::find(alphabet.begin(), alphabet.end(), g.name());
                in.symbol = it == alphabet.end() ? -1 : static_cast<std::int32_t>(it - alphabet.begin());
            }
            if (g.is_temporal()) {
                Field fd;
                fd.node = static_cast<std::uint32_t>(prog_.size());
                fd.offset = offset;
                if (g.op() == ltl::Op::BoundedYesterday && g.k() >= 2) {
                    fd.k = g.k();
                    fd.bits = 0;
                    while ((1u << fd.bits) <= fd.k) ++fd.bits;
                }
                // A field never straddles two 64-bit words.
                if (offset / 64 != (offset + fd.bits - 1) / 64) fd.offset = offset = (offset / 64 + 1) * 64;
                offset += fd.bits;
                in.temporal = static_cast<std::uint32_t>(fields_.size());
                fields_.push_back(fd);
            }
            prog_.push_back(in);
        }
        words_ = std::max<std::size_t>(1, (offset + 63) / 64);
        val_.assign(prog_.size(), 0);
    }

    std::size_t words() const { return words_; }

    // The state before any symbol: every field false, except H (vacuously true at position 1).
    void initial_state(std::uint64_t* s) const {
        std::fill(s, s + words_, 0);
        for (const Field& fd : fields_)
            if (prog_[fd.node].op == ltl::Op::Historically) set(s, fd, 1);
    }

    // Evaluates every node at the current position: symbol `a` (or EOS when a < 0), with the
    // temporal values taken from state s. Returns the value of the root.
    bool evaluate(const std::uint64_t* s, long a) {
        for (std::size_t i = 0; i < prog_.size(); ++i) {
            const Instr& in = prog_[i];
            std::uint8_t v = 0;
            switch (in.op) {
                case ltl::Op::True: v = 1; break;
                case ltl::Op::False: v = 0; break;
                case ltl::Op::Atom: v = in.symbol >= 0 && in.symbol == a; break;
                case ltl::Op::Not: v = !val_[in.c0]; break;
                case ltl::Op::And: v = val_[in.c0] & val_[in.c1]; break;
                case ltl::Op::Or: v = val_[in.c0] | val_[in.c1]; break;
                case ltl::Op::Implies: v = static_cast<std::uint8_t>(!val_[in.c0]) | val_[in.c1]; break;
                case ltl::Op::Iff: v = val_[in.c0] == val_[in.c1]; break;
                default: v = get(s, fields_[in.temporal]) != 0; break;  // temporal
            }
            val_[i] = v;
        }
        return val_.back() != 0;
    }

    // After evaluate(s, a): the state at the next position.
    void successor(const std::uint64_t* s, std::uint64_t* out) const {
        std::fill(out, out + words_, 0);
        for (const Field& fd : fields_) {
            const Instr& in = prog_[fd.node];
            const std::uint8_t x = val_[in.c0];
            std::uint64_t v = 0;
            switch (in.op) {
                case ltl::Op::Past: v = get(s, fd) | x; break;         // P φ at i+1 = P φ(i) ∨ φ(i)
                case ltl::Op::Historically: v = get(s, fd) & x; break;  // H φ at i+1 = H φ(i) ∧ φ(i)
                case ltl::Op::Yesterday: v = x; break;                  // Y φ at i+1 = φ(i)
                case ltl::Op::BoundedYesterday: {
                    const std::uint64_t r = get(s, fd);
                    v = x ? fd.k : (r ? r - 1 : 0);
                    break;
                }
                case ltl::Op::Since:  // (φ S ψ) at i+1 = ψ(i) ∨ (φ(i) ∧ (φ S ψ)(i))
                    v = val_[in.c1] | (x & get(s, fd));
                    break;
                default: break;
            }
            set(out, fd, v);
        }
    }

private:
    static std::uint64_t get(const std::uint64_t* s, const Field& fd) {
        return (s[fd.offset / 64] >> (fd.offset % 64)) & ((std::uint64_t{1} << fd.bits) - 1);
    }
    static void set(std::uint64_t* s, const Field& fd, std::uint64_t v) {
        s[fd.offset / 64] |= v << (fd.offset % 64);
    }

    std::vector<Instr> prog_;
    std::vector<Field> fields_;
    std::size_t words_ = 1;
    std::vector<std::uint8_t> val_;
};

// Open-addressing hash set of fixed-width states stored in one pool; maps a state to its number.
class StateTable {
public:
    explicit StateTable(std::size_t words) : words_(words), slots_(1024, kEmpty) {}

    std::size_t size() const { return count_; }
    const std::uint64_t* state(std::uint32_t id) const { return pool_.data() + id * words_; }

    // Returns the number of s, inserting it when new (`fresh` tells which).
    std::uint32_t insert(const std::uint64_t* s, bool& fresh) {
        if ((count_ + 1) * 2 > slots_.size()) grow();
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = hash(s) & mask;; i = (i + 1) & mask) {
            const std::uint32_t id = slots_[i];
            if (id == kEmpty) {
                slots_[i] = static_cast<std::uint32_t>(count_);
                pool_.insert(pool_.end(), s, s + words_);
                fresh = true;
                return static_cast<std::uint32_t>(count_++);
            }
            if (std::memcmp(state(id), s, words_ * sizeof(std::uint64_t)) == 0) {
                fresh = false;
                return id;
            }
        }
    }

private:
    static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
    std::size_t hash(const std::uint64_t* s) const {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL;
        for (std::size_t i = 0; i < words_; ++i) {
            h ^= s[i];
            h *= 0xbf58476d1ce4e5b9ULL;
            h ^= h >> 31;
        }
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
    void grow() {
        std::vector<std::uint32_t> bigger(slots_.size() * 2, kEmpty);
        const std::size_t mask = bigger.size() - 1;
        for (std::uint32_t id = 0; id < count_; ++id) {
            std::size_t i = hash(state(id)) & mask;
            while (bigger[i] != kEmpty) i = (i + 1) & mask;
            bigger[i] = id;
        }
        slots_.swap(bigger);
    }

    std::size_t words_;
    std::vector<std::uint32_t> slots_;
    std::vector<std::uint64_t> pool_;
    std::size_t count_ = 0;
};

}  // namespace

Result<Dfa> compile(ltl::Formula f, const std::vector<std::string>& alphabet,
                    const CompileOptions& options) {
    if (f.is_null()) return make_error("no formula");
    for (const auto& s : ltl::atoms(f))
        if (std::find(alphabet.begin(), alphabet.end(), s) == alphabet.end())
            return make_error("symbol '" + s + "' is not in the alphabet");
    Monitor mon(f, alphabet);
    const std::size_t w = mon.words(), m = alphabet.size();
    StateTable table(w);
    std::vector<std::uint64_t> cur(w), next(w);
    Dfa d;
    d.alphabet = alphabet;
    d.initial = 0;
    bool fresh = false;
    mon.initial_state(cur.data());
    table.insert(cur.data(), fresh);
    // BFS: states are numbered in discovery order, successors in alphabet order.
    for (std::uint32_t q = 0; q < table.size(); ++q) {
        std::copy(table.state(q), table.state(q) + w, cur.begin());
        d.accepting.push_back(mon.evaluate(cur.data(), -1) ? 1 : 0);
        for (std::size_t a = 0; a < m; ++a) {
            mon.evaluate(cur.data(), static_cast<long>(a));
            mon.successor(cur.data(), next.data());
            const std::uint32_t r = table.insert(next.data(), fresh);
            if (fresh && table.size() > options.max_states)
                return limit_error("the monitor of the formula has more than " +
                                   std::to_string(options.max_states) +
                                   " reachable states; raise --max-states to build it");
            d.delta.push_back(r);
        }
    }
    if (!options.minimize) return canonical(d);
    return minimize(d);
}

}  // namespace ltlkit::automata
