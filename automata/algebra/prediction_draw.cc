// The random generators and the draw of prediction suites (prediction_suite.hh; docs/SUBREGULAR.md
// §5b): rejection sampling over the generators that can produce the constrained classes, each
// candidate minimized, filtered first by the cheap DFA criteria of the class table, then
// classified (classify.hh) with the windows the request names.
#include <algorithm>
#include <set>

#include "automata/algebra/classes.hh"
#include "automata/algebra/prediction_suite.hh"
#include "automata/algebra/subregular.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "automata/monitor.hh"
#include "automata/random.hh"

namespace ltlkit::automata::algebra {

Dfa random_shaped_dfa(Rng& rng, std::size_t n, const std::vector<std::string>& alphabet, std::optional<unsigned> shape_in) {
    const std::size_t k = alphabet.size();
    Dfa d;
    d.alphabet = alphabet;
    d.accepting.resize(n);
    for (auto& x : d.accepting) x = std::uint8_t(rng.below(2));
    d.delta.resize(n * k);
    const auto shape = shape_in ? *shape_in : rng.below(3);
    for (std::size_t q = 0; q < n; ++q)
        for (std::size_t a = 0; a < k; ++a)
            d.delta[q * k + a] = shape == 0   ? State(rng.below(n))
                                 : shape == 1 ? State(q + rng.below(n - q))
                                              : (rng.below(3) == 0 ? State(rng.below(n)) : State(q));
    return d;
}

Dfa random_definite_dfa(Rng& rng, unsigned d, const std::vector<std::string>& alphabet) {
    const std::size_t k = alphabet.size();
    // State of a word u, |u| <= d: offset[|u|] + u read as a number in base k.
    std::vector<std::size_t> offset(d + 2, 0), power(d + 1, 1);
    for (unsigned i = 1; i <= d; ++i) power[i] = power[i - 1] * k;
    for (unsigned i = 0; i <= d; ++i) offset[i + 1] = offset[i] + power[i];
    Dfa out;
    out.alphabet = alphabet;
    out.initial = 0;
    out.accepting.resize(offset[d + 1]);
    out.delta.resize(offset[d + 1] * k);
    for (auto& x : out.accepting) x = std::uint8_t(rng.below(2));
    if (rng.below(2) == 0) {
        const auto bit = std::uint8_t(rng.below(2));
        for (std::size_t s = offset[d]; s < offset[d + 1]; ++s) out.accepting[s] = bit;
    }
    for (unsigned len = 0; len <= d; ++len)
        for (std::size_t v = 0; v < power[len]; ++v)
            for (std::size_t a = 0; a < k; ++a) {
                const std::size_t next = len < d ? offset[len + 1] + v * k + a : offset[d] + (v * k + a) % power[d];
                out.delta[(offset[len] + v) * k + a] = State(next);
            }
    return out;
}

namespace {

// The generators of §5b; a candidate picks one uniformly among those that can produce the
// constrained classes.
enum class Gen { Uniform, PartiallyOrdered, SelfLoops, Definite, Product };

const char* gen_name(Gen g) {
    switch (g) {
        case Gen::Uniform: return "uniform";
        case Gen::PartiallyOrdered: return "partially_ordered";
        case Gen::SelfLoops: return "self_loops";
        case Gen::Definite: return "definite";
        case Gen::Product: return "product";
    }
    return "";
}

std::vector<Gen> generators_for(const ConstraintClosure& c) {
    const auto definite = c.of(ClassKind::Definite), rt = c.of(ClassKind::RTrivial), lrt = c.of(ClassKind::LocallyRTrivial);
    if (definite == true) return {Gen::Definite};
    if (rt == true) return {Gen::PartiallyOrdered};
    if (lrt == true) {
        std::vector<Gen> g = {Gen::Product, Gen::SelfLoops};
        if (rt != false) g.push_back(Gen::PartiallyOrdered);
        if (definite != false) g.push_back(Gen::Definite);
        return g;
    }
    if (lrt == false) return {Gen::Uniform, Gen::SelfLoops};
    return {Gen::Uniform, Gen::PartiallyOrdered, Gen::SelfLoops, Gen::Definite, Gen::Product};
}

// The largest degree whose DFA (before minimizing) has at most 2·max_states windows, at least 1.
unsigned max_degree(std::size_t letters, std::size_t max_states) {
    unsigned d = 1;
    std::size_t p = letters;
    while (d < 6 && p * letters <= 2 * max_states) p *= letters, ++d;
    return d;
}

Dfa generate(Gen g, Rng& rng, const PredictionSuiteRequest& r) {
    const std::size_t n = r.min_states + rng.below(r.max_states - r.min_states + 1);
    const unsigned dmax = max_degree(r.alphabet.size(), r.max_states);
    switch (g) {
        case Gen::Uniform: return random_shaped_dfa(rng, n, r.alphabet, 0);
        case Gen::PartiallyOrdered: return random_shaped_dfa(rng, n, r.alphabet, 1);
        case Gen::SelfLoops: return random_shaped_dfa(rng, n, r.alphabet, 2);
        case Gen::Definite: return random_definite_dfa(rng, 1 + unsigned(rng.below(dmax)), r.alphabet);
        case Gen::Product: {
            // A Boolean combination of a definite language (LTL[Y]) and a partially ordered one
            // (LTL[P]): in LTL[P,Y], i.e. locally R-trivial, and often neither of the two.
            const Dfa a = minimize(random_definite_dfa(rng, 1 + unsigned(rng.below(std::min(dmax, 2u))), r.alphabet));
            const Dfa b = minimize(random_shaped_dfa(rng, 2 + rng.below(3), r.alphabet, 1));
            switch (rng.below(4)) {
                case 0: return product(a, b, [](bool x, bool y) { return x && y; });
                case 1: return product(a, b, [](bool x, bool y) { return x || y; });
                case 2: return product(a, b, [](bool x, bool y) { return x != y; });
                default: return product(a, b, [](bool x, bool y) { return x && !y; });
            }
        }
    }
    return {};
}

}  // namespace

std::vector<ClassConstraint> request_facts(const PredictionSuiteRequest& r) {
    std::vector<ClassConstraint> facts = r.constraints;
    if (r.formulas) facts.push_back(fragment_class(r.formulas->fragment));
    return facts;
}

Result<PredictionSuiteDraw> draw_prediction_suite(const PredictionSuiteRequest& r) {
    if (r.alphabet.empty()) return make_error("the alphabet is empty");
    if (r.min_states < 1 || r.min_states > r.max_states) return make_error("the state range must satisfy 1 <= min <= max");
    if (r.max_states > 64) return make_error("--max-states " + std::to_string(r.max_states) + " is above 64");
    if (r.count < 1) return make_error("the count must be at least 1");
    // With formulas, the fragment's class is a fact: constraints against it are contradictions.
    if (r.formulas) {
        if (r.formulas->depth < 1 || r.formulas->depth > 8) return make_error("the formula depth must be 1..8");
        if (r.formulas->fragment.kind == ltl::FragmentKind::None || r.formulas->fragment.kind == ltl::FragmentKind::S)
            return make_error("formulas are drawn from P, Y, Y<=K, P,Y or P,Y<=K");
    }
    const std::vector<ClassConstraint> facts = request_facts(r);
    auto closure = close_constraints(facts);
    if (!closure)
        return make_error((r.formulas ? "with formulas of " + r.formulas->fragment.name() + " (" + facts.back().text() + "): " : std::string()) +
                          closure.error().message);
    unsigned named = 1;
    for (const auto& c : facts)
        if (c.cls.is_window()) named = std::max(named, c.cls.k);
    PredictionSuiteDraw out;
    out.max_k = r.max_k ? r.max_k : named;
    if (out.max_k < named)
        return make_error("--max-k " + std::to_string(out.max_k) + " is below the window " + std::to_string(named) +
                          " that a constraint names");
    ClassifyOptions co;
    co.max_k = out.max_k;
    co.window_work = r.window_work;
    // The cheap DFA criteria first: every class-table row the closure decides and that has one.
    std::vector<std::pair<const ClassRow*, bool>> quick;
    for (const auto& k : closure->known)
        if (const ClassRow* row = find_class(k.cls); row && row->by_dfa) quick.push_back({row, k.member});
    // What is recorded per DFA: the constraints, then the three rows behind the 1-window predictions.
    std::vector<ClassId> recorded;
    for (const auto& c : facts)
        if (std::find(recorded.begin(), recorded.end(), c.cls) == recorded.end()) recorded.push_back(c.cls);
    for (const ClassId c : {ClassKind::Definite, ClassKind::RTrivial, ClassKind::LocallyRTrivial}) {
        if (std::find(recorded.begin(), recorded.end(), c) == recorded.end()) recorded.push_back(c);
    }
    const std::vector<Gen> gens = generators_for(*closure);
    Rng rng(r.seed);
    std::set<std::string> tried;  // languages that reached the classification (kept or not)
    while (out.dfas.size() < r.count) {
        if (out.draws >= r.max_draws) {
            std::string what;
            for (const auto& c : r.constraints) what += (what.empty() ? "" : ", ") + c.text();
            return limit_error("only " + std::to_string(out.dfas.size()) + " of " + std::to_string(r.count) +
                               " distinct languages (" + (what.empty() ? "no constraint" : what) + ") after " +
                               std::to_string(r.max_draws) + " draws (--max-draws; " + std::to_string(out.rejected_unknown) +
                               " dropped for an unknown answer)");
        }
        ++out.draws;
        ltl::Formula f;
        Dfa d;
        Gen g = Gen::Uniform;
        if (r.formulas) {
            f = random_fragment_formula(rng, r.formulas->fragment, r.alphabet, r.formulas->depth);
            auto compiled = compile(f, r.alphabet);
            if (!compiled) return compiled.error();
            d = minimize(*compiled);
        } else {
            g = gens[rng.below(gens.size())];
            d = minimize(generate(g, rng, r));
        }
        if (d.num_states() < r.min_states || d.num_states() > r.max_states) {
            ++out.rejected_size;
            continue;
        }
        DfaAnalysis A(d);
        bool ok = true;
        for (auto [row, member] : quick)
            if (row->by_dfa(A).member != member) {
                ok = false;
                break;
            }
        if (!ok) continue;
        if (!tried.insert(to_json(d)).second) {
            ++out.rejected_duplicate;
            continue;
        }
        co.source = f;  // classify --formula: a formula of the window fragment is its own certificate
        auto c = classify(d, co);
        if (!c) return c.error();
        bool unknown = false;
        std::vector<ClassAnswer> answers;
        for (const auto& cls : recorded) answers.push_back({cls, class_answer(*c, d, cls)});
        for (const auto& con : facts) {
            const Answer a = std::find_if(answers.begin(), answers.end(), [&](const ClassAnswer& x) { return x.cls == con.cls; })->answer;
            if (a == Answer::Unknown) unknown = true;
            else if ((a == Answer::Yes) != con.member) ok = false;
        }
        if (!ok) continue;
        if (unknown) {
            ++out.rejected_unknown;
            continue;
        }
        out.dfas.push_back(std::move(d));
        out.answers.push_back(std::move(answers));
        out.generators.push_back(r.formulas ? "formula" : gen_name(g));
        if (r.formulas) out.formulas.push_back(f);
    }
    return out;
}

}  // namespace ltlkit::automata::algebra
