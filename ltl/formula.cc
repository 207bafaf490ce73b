// Hash-consed past-LTL formula nodes (after Spot's spot/tl/formula.cc): every distinct node lives
// once in a global intern table guarded by a mutex; nodes are never freed, so handles stay valid.
#include "ltl/formula.hh"

#include <algorithm>
#include <cassert>
#include <deque>
#include <limits>
#include <mutex>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace ltlkit::ltl {

struct Node {
    Op op;
    unsigned k = 0;                   // window (BoundedYesterday only)
    std::string name;                 // atom name (Atom only)
    const Node* child[2] = {nullptr, nullptr};
    std::size_t id = 0;
    std::size_t arity = 0;
};

namespace {

struct Key {
    Op op;
    const Node* a;
    const Node* b;
    unsigned k;
    std::string name;
    bool operator==(const Key&) const = default;
};

// splitmix64 finalizer (Steele, Lea & Flood 2014): pointers of neighbouring nodes differ in few
// bits, so each component is mixed fully before combining.
std::uint64_t mix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

struct KeyHash {
    std::size_t operator()(const Key& key) const noexcept {
        std::uint64_t h = mix64(static_cast<std::uint64_t>(key.op) * 0x100000001ULL + key.k);
        h = mix64(h ^ reinterpret_cast<std::uintptr_t>(key.a));
        h = mix64(h ^ reinterpret_cast<std::uintptr_t>(key.b));
        if (!key.name.empty()) h = mix64(h ^ std::hash<std::string>()(key.name));
        return static_cast<std::size_t>(h);
    }
};

struct Table {
    std::mutex mutex;
    std::deque<Node> nodes;  // stable addresses; index == id
    std::unordered_map<Key, const Node*, KeyHash> index;
};

Table& table() {
    static Table* t = new Table();  // never destroyed: handles may outlive static destructors
    return *t;
}

std::size_t arity_of(Op op) {
    switch (op) {
        case Op::True:
        case Op::False:
        case Op::Atom:
            return 0;
        case Op::Not:
        case Op::Past:
        case Op::Yesterday:
        case Op::BoundedYesterday:
        case Op::Historically:
            return 1;
        case Op::And:
        case Op::Or:
        case Op::Implies:
        case Op::Iff:
        case Op::Since:
            return 2;
    }
    return 0;
}

}  // namespace

Formula intern(Op op, Formula a, Formula b, unsigned k, const std::string& name) {
    Table& t = table();
    Key key{op, a.node(), b.node(), k, name};
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.index.find(key);
    if (it != t.index.end()) return Formula(it->second);
    Node& n = t.nodes.emplace_back();
    n.op = op;
    n.k = k;
    n.name = name;
    n.child[0] = a.node();
    n.child[1] = b.node();
    n.id = t.nodes.size() - 1;
    n.arity = arity_of(op);
    t.index.emplace(std::move(key), &n);
    return Formula(&n);
}

namespace {
void require(Formula f, const char* what) {
    if (f.is_null()) throw std::invalid_argument(std::string("ltl::Formula::") + what + ": null operand");
}
}  // namespace

Formula Formula::tt() { return intern(Op::True, {}, {}, 0, ""); }
Formula Formula::ff() { return intern(Op::False, {}, {}, 0, ""); }
Formula Formula::atom(const std::string& name) { return intern(Op::Atom, {}, {}, 0, name); }
Formula Formula::neg(Formula f) {
    require(f, "neg");
    return intern(Op::Not, f, {}, 0, "");
}
Formula Formula::conj(Formula a, Formula b) {
    require(a, "conj"), require(b, "conj");
    return intern(Op::And, a, b, 0, "");
}
Formula Formula::disj(Formula a, Formula b) {
    require(a, "disj"), require(b, "disj");
    return intern(Op::Or, a, b, 0, "");
}
Formula Formula::implies(Formula a, Formula b) {
    require(a, "implies"), require(b, "implies");
    return intern(Op::Implies, a, b, 0, "");
}
Formula Formula::iff(Formula a, Formula b) {
    require(a, "iff"), require(b, "iff");
    return intern(Op::Iff, a, b, 0, "");
}
Formula Formula::since(Formula a, Formula b) {
    require(a, "since"), require(b, "since");
    return intern(Op::Since, a, b, 0, "");
}
Formula Formula::past(Formula f) {
    require(f, "past");
    return intern(Op::Past, f, {}, 0, "");
}
Formula Formula::yesterday(Formula f) {
    require(f, "yesterday");
    return intern(Op::Yesterday, f, {}, 0, "");
}
Formula Formula::bounded_yesterday(Formula f, unsigned k) {
    require(f, "bounded_yesterday");
    if (k == 0) throw std::invalid_argument("ltl::Formula::bounded_yesterday: k must be >= 1");
    return intern(Op::BoundedYesterday, f, {}, k, "");
}
Formula Formula::historically(Formula f) {
    require(f, "historically");
    return intern(Op::Historically, f, {}, 0, "");
}

Op Formula::op() const { return node_->op; }
const std::string& Formula::name() const { return node_->name; }
unsigned Formula::k() const { return node_->k; }
std::size_t Formula::arity() const { return node_->arity; }
Formula Formula::child(std::size_t i) const {
    assert(i < node_->arity);
    return Formula(node_->child[i]);
}
std::size_t Formula::id() const { return node_->id; }

bool Formula::is_temporal() const {
    switch (node_->op) {
        case Op::Since:
        case Op::Past:
        case Op::Yesterday:
        case Op::BoundedYesterday:
        case Op::Historically:
            return true;
        default:
            return false;
    }
}

std::vector<Formula> subformulas_postorder(Formula f) {
    std::vector<Formula> out;
    if (f.is_null()) return out;
    std::unordered_set<const Node*> seen;
    // Iterative DFS: (formula, next child index).
    std::vector<std::pair<Formula, std::size_t>> stack;
    stack.emplace_back(f, 0);
    seen.insert(f.node());
    while (!stack.empty()) {
        auto& [g, i] = stack.back();
        if (i < g.arity()) {
            Formula c = g.child(i++);
            if (seen.insert(c.node()).second) stack.emplace_back(c, 0);
        } else {
            out.push_back(g);
            stack.pop_back();
        }
    }
    return out;
}

std::vector<std::string> atoms(Formula f) {
    std::set<std::string> names;
    for (Formula g : subformulas_postorder(f))
        if (g.op() == Op::Atom) names.insert(g.name());
    return {names.begin(), names.end()};
}

std::size_t dag_size(Formula f) { return subformulas_postorder(f).size(); }

std::size_t tree_size(Formula f) {
    constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
    std::unordered_map<const Node*, std::size_t> size;
    std::size_t last = 0;
    for (Formula g : subformulas_postorder(f)) {
        std::size_t s = 1;
        for (std::size_t i = 0; i < g.arity(); ++i) {
            std::size_t c = size[g.child(i).node()];
            s = (s > kMax - c) ? kMax : s + c;
        }
        size[g.node()] = s;
        last = s;
    }
    return last;
}

std::size_t temporal_depth(Formula f) {
    std::unordered_map<const Node*, std::size_t> depth;
    std::size_t last = 0;
    for (Formula g : subformulas_postorder(f)) {
        std::size_t d = 0;
        for (std::size_t i = 0; i < g.arity(); ++i) d = std::max(d, depth[g.child(i).node()]);
        if (g.is_temporal()) ++d;
        depth[g.node()] = d;
        last = d;
    }
    return last;
}

}  // namespace ltlkit::ltl
