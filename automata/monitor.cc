// Past-time monitor construction (after Havelund & Roşu, "Synthesizing monitors for safety
// properties", TACAS 2002, with the evaluation at the EOS position of LC25): a state is the
// vector of what every temporal subformula needs at the next position. Reachable states are
// found by BFS over packed bit-vector states in an open-addressing hash table; the result is
// minimized by Hopcroft's algorithm. Chains of unary operators share one counter per base (see
// Field), so the program has one node per chain. O(states · |Σ| · program) time.
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
    std::uint32_t c0 = 0, c1 = 0;  // child instruction indices
    std::int32_t symbol = -1;      // Atom: index in the alphabet
    std::uint32_t temporal = 0;    // temporal nodes: index into the field table
    std::uint32_t threshold = 0;   // counted nodes (Field::counter): true iff the counter reaches it
    bool negated = false;          // counted H^n: true iff the counter of the negated base stays below
};

// The state field of a temporal subformula, at `offset` bits. For Y and S: one bit, the
// subformula's value at the next position. For Y<=k (k ≥ 2): r ∈ 0..k, the number of further
// positions for which Y<=k φ still holds because of the latest position where φ held (so
// Y<=k φ holds at the next position iff r > 0); this is all of the window that matters.
//
// Counters serve chains of unary operators over one base φ. A chain of P, Y and Y<=k with at
// least one P, n operators long, holds at i iff φ held at some j ≤ i−n (Y ψ → Y<=k ψ → P ψ, and
// P is monotone, so every such chain lies between Y^(m−1) P Y^(n−m) φ and P^n φ, which agree);
// H^n φ holds at i iff φ held at every j ≤ i−n. So one counter d ∈ 0..cap per base (and per
// polarity: H counts the positions of !φ) answers every chain over it: d = 0 while φ has not
// held before the next position, else min(cap, positions since its first occurrence); the chain
// of length n holds iff d ≥ n. This keeps P P … P a at one field of log2(n+1) bits and one
// evaluated node instead of n of each.
struct Field {
    std::uint32_t node = 0;  // instruction of the temporal node; for a counter, of its base
    std::uint32_t offset = 0;
    std::uint32_t bits = 1;
    std::uint32_t k = 1;  // Y<=k: the window; counter: the cap
    bool counter = false;
    bool negated = false;  // counter of !base
};

bool is_step(ltl::Op op) {
    return op == ltl::Op::Past || op == ltl::Op::Yesterday || op == ltl::Op::BoundedYesterday;
}

class Monitor {
public:
    Monitor(ltl::Formula f, const std::vector<std::string>& alphabet) {
        const std::vector<ltl::Formula> nodes = ltl::subformulas_postorder(f);
        const std::size_t n = nodes.size();
        std::vector<std::uint32_t> index_of_id;
        for (std::size_t i = 0; i < n; ++i) {
            if (nodes[i].id() >= index_of_id.size()) index_of_id.resize(nodes[i].id() + 1);
            index_of_id[nodes[i].id()] = static_cast<std::uint32_t>(i);
        }
        auto child = [&](std::size_t i, std::size_t c) { return index_of_id[nodes[i].child(c).id()]; };
        // Chains: the base, the length and (P/Y chains) whether a P occurs, per node of a chain.
        enum class Chain : std::uint8_t { None, Past, Historically };
        std::vector<Chain> chain(n, Chain::None);
        std::vector<std::uint32_t> base(n, 0), length(n, 0);
        std::vector<std::uint8_t> has_past(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
            const ltl::Op op = nodes[i].op();
            if (op == ltl::Op::Historically) {
                const std::uint32_t c = child(i, 0);
                const bool extend = nodes[c].op() == ltl::Op::Historically;
                chain[i] = Chain::Historically;
                base[i] = extend ? base[c] : c;
                length[i] = extend ? length[c] + 1 : 1;
            } else if (is_step(op)) {
                const std::uint32_t c = child(i, 0);
                const bool extend = is_step(nodes[c].op());
                base[i] = extend ? base[c] : c;
                length[i] = extend ? length[c] + 1 : 1;
                has_past[i] = (extend && has_past[c]) || op == ltl::Op::Past;
                if (has_past[i]) chain[i] = Chain::Past;
            }
        }
        // The nodes the root needs: a chain node needs only its base (through the counter).
        std::vector<std::uint8_t> needed(n, 0);
        needed[n - 1] = 1;
        for (std::size_t i = n; i-- > 0;) {
            if (!needed[i]) continue;
            if (chain[i] != Chain::None) {
                needed[base[i]] = 1;
                continue;
            }
            for (std::size_t c = 0; c < nodes[i].arity(); ++c) needed[child(i, c)] = 1;
        }
        // One counter per (base, polarity), its cap the longest chain needed over it.
        std::vector<std::uint32_t> cap_past(n, 0), cap_hist(n, 0);
        for (std::size_t i = 0; i < n; ++i)
            if (needed[i] && chain[i] != Chain::None) {
                auto& cap = chain[i] == Chain::Past ? cap_past[base[i]] : cap_hist[base[i]];
                cap = std::max(cap, length[i]);
            }
        std::vector<std::uint32_t> instr_of(n, 0), counter_past(n, 0), counter_hist(n, 0);
        std::uint32_t offset = 0;
        auto add_field = [&](Field fd) {
            fd.bits = 0;
            while (fd.bits < 32 && (std::uint64_t{1} << fd.bits) <= fd.k) ++fd.bits;
            // A field never straddles two 64-bit words.
            if (offset / 64 != (offset + fd.bits - 1) / 64) offset = (offset / 64 + 1) * 64;
            fd.offset = offset;
            offset += fd.bits;
            fields_.push_back(fd);
            return static_cast<std::uint32_t>(fields_.size() - 1);
        };
        for (std::size_t i = 0; i < n; ++i) {
            if (!needed[i]) continue;
            const ltl::Formula g = nodes[i];
            Instr in;
            in.op = g.op();
            if (g.op() == ltl::Op::Atom) {
                auto it = std::find(alphabet.begin(), alphabet.end(), g.name());
                in.symbol = it == alphabet.end() ? -1 : static_cast<std::int32_t>(it - alphabet.begin());
            }
            instr_of[i] = static_cast<std::uint32_t>(prog_.size());
            if (chain[i] != Chain::None) {  // its base, a descendant, already has its counter
                in.negated = chain[i] == Chain::Historically;
                in.threshold = length[i];
                in.temporal = in.negated ? counter_hist[base[i]] : counter_past[base[i]];
            } else {
                if (g.arity() >= 1) in.c0 = instr_of[child(i, 0)];
                if (g.arity() >= 2) in.c1 = instr_of[child(i, 1)];
                if (g.is_temporal()) {
                    Field fd;
                    fd.node = static_cast<std::uint32_t>(prog_.size());
                    if (g.op() == ltl::Op::BoundedYesterday) fd.k = g.k();
                    in.temporal = add_field(fd);
                }
            }
            prog_.push_back(in);
            // The counters over this node, once it has an instruction (their successor reads it).
            for (bool negated : {false, true}) {
                const std::uint32_t cap = negated ? cap_hist[i] : cap_past[i];
                if (cap == 0) continue;
                Field fd;
                fd.node = instr_of[i];
                fd.k = cap;
                fd.counter = true;
                fd.negated = negated;
                (negated ? counter_hist : counter_past)[i] = add_field(fd);
            }
        }
        words_ = std::max<std::size_t>(1, (offset + 63) / 64);
        val_.assign(prog_.size(), 0);
    }

    std::size_t words() const { return words_; }
    // What one transition costs: the program evaluated and the state written.
    std::size_t cost() const { return prog_.size() + words_; }

    // The state before any symbol: every field 0 (a counter at 0 makes every H chain vacuously true).
    void initial_state(std::uint64_t* s) const { std::fill(s, s + words_, 0); }

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
                default: {  // temporal
                    const std::uint64_t r = get(s, fields_[in.temporal]);
                    if (in.threshold == 0) v = r != 0;
                    else v = (r >= in.threshold) != in.negated;
                    break;
                }
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
            std::uint64_t v = 0;
            if (fd.counter) {
                const std::uint64_t r = get(s, fd);
                const bool x = (val_[fd.node] != 0) != fd.negated;
                v = r ? std::min<std::uint64_t>(fd.k, r + 1) : (x ? 1 : 0);
                set(out, fd, v);
                continue;
            }
            const std::uint8_t x = val_[in.c0];
            switch (in.op) {
                case ltl::Op::Yesterday: v = x; break;  // Y φ at i+1 = φ(i)
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
    const std::size_t step_cost = (m + 1) * mon.cost();
    std::size_t work = 0;
    for (std::uint32_t q = 0; q < table.size(); ++q) {
        work += step_cost;
        if (options.max_work && work > options.max_work)
            return limit_error("the monitor of the formula needs more than " + std::to_string(options.max_work) +
                               " steps of work (" + std::to_string(q) + " states so far, each costing " +
                               std::to_string(step_cost) + "); raise --max-work to build it");
        if (options.interrupted && options.interrupted(step_cost))
            return limit_error("the monitor of the formula was stopped by the caller's budget after " + std::to_string(q) +
                               " states (each costing " + std::to_string(step_cost) + " steps of work)");
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
