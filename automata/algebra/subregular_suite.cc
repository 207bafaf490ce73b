// Suites of random minimal DFAs by subregular class (docs/SUBREGULAR.md §5): rejection sampling.
#include <set>

#include "automata/algebra/prediction_suite.hh"
#include "automata/algebra/subregular.hh"
#include "automata/algebra/subregular_internal.hh"
#include "automata/algorithms.hh"
#include "automata/dfa_json.hh"
#include "automata/random.hh"

namespace ltlkit::automata::algebra {

// The candidates are random_shaped_dfa (prediction_suite.hh), its shape drawn after the acceptance bits.
Result<SuiteDraw> draw_suite(const SuiteRequest& r) {
    if (!is_subregular_class(r.cls)) {
        std::string names;
        for (const ClassId& id : subregular_class_ids()) names += (names.empty() ? "" : ", ") + to_string(id);
        return make_error("unknown class '" + r.cls + "' (" + names + ")");
    }
    using K = ClassKind;
    const ClassId cls = *parse_class_id(r.cls);
    if (r.alphabet.empty()) return make_error("the alphabet is empty");
    if (r.min_states < 1 || r.min_states > r.max_states) return make_error("the state range must satisfy 1 <= min <= max");
    if (r.t && cls != K::LTT) return make_error("--t is a parameter of LTT only");
    const bool has_k = cls == K::SL || cls == K::SP || cls == K::LT || cls == K::PT || cls == K::LTT || cls == K::TSL;
    if (r.k && !has_k) return make_error("--k is not a parameter of " + r.cls);
    if (r.proper_tier && cls != K::TSL) return make_error("--proper-tier is an option of TSL only");
    if (r.proper_tier && r.alphabet.size() < 2) return make_error("--proper-tier needs an alphabet of at least 2 letters");
    Rng rng(r.seed);
    SuiteDraw out;
    std::set<std::string> seen;
    const std::size_t ns = r.alphabet.size();
    while (out.dfas.size() < r.count) {
        if (out.draws >= r.max_draws)
            return make_error("only " + std::to_string(out.dfas.size()) + " of " + std::to_string(r.count) + " distinct " + r.cls +
                              " languages after " + std::to_string(r.max_draws) + " draws (--max-draws)");
        ++out.draws;
        Dfa d;
        const unsigned kk = r.k.value_or(1 + unsigned(rng.below(3)));
        if (r.proper_tier && rng.below(2) == 0) {
            // TSL on a proper tier: random forbidden factors over a random proper subset, lifted.
            std::vector<std::string> tier;
            while (tier.empty() || tier.size() == ns) {
                tier.clear();
                for (const auto& x : r.alphabet)
                    if (rng.below(2)) tier.push_back(x);
            }
            std::vector<Word> forbidden;
            for (const Word& f : subregular::sl_all_factors(tier.size(), kk))
                if (rng.below(4) == 0) forbidden.push_back(f);
            d = lift_tier_dfa(sl_dfa_from_forbidden(tier, kk, forbidden), r.alphabet);
        } else if ((cls == K::SL || cls == K::TSL) && rng.below(2) == 0) {
            std::vector<Word> forbidden;
            for (const Word& f : subregular::sl_all_factors(ns, kk))
                if (rng.below(4) == 0) forbidden.push_back(f);
            d = sl_dfa_from_forbidden(r.alphabet, kk, forbidden);
        } else if (cls == K::SP && rng.below(2) == 0) {
            std::vector<Word> forbidden(1 + rng.below(3));
            for (auto& w : forbidden) {
                w.resize(1 + rng.below(kk));
                for (auto& x : w) x = Symbol(rng.below(ns));
            }
            d = sp_dfa_from_forbidden(r.alphabet, forbidden);
        } else {
            d = minimize(random_shaped_dfa(rng, r.min_states + rng.below(r.max_states - r.min_states + 1), r.alphabet));
        }
        if (d.num_states() > r.max_states) continue;
        auto dec = decide_subregular(cls, d);
        if (dec->member != true) continue;
        if (r.k && !(dec->params.contains("k") && dec->params["k"] == *r.k)) continue;
        if (r.t && !(dec->params.contains("t") && dec->params["t"] == *r.t)) continue;
        if (r.proper_tier && dec->params["tier"].size() >= ns) continue;
        if (!seen.insert(to_json(d)).second) continue;
        out.dfas.push_back(d);
        out.decisions.push_back(*dec);
    }
    return out;
}

}  // namespace ltlkit::automata::algebra
