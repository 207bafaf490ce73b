#include "automata/algebra/classification_json.hh"

#include "automata/algebra/classes.hh"

namespace ltlkit::automata::algebra {

namespace {
using ojson = nlohmann::ordered_json;

template <class T>
ojson or_null(const std::optional<T>& v) {
    return v ? ojson(*v) : ojson(nullptr);
}
}  // namespace

ojson classification_to_json(const Classification& c, const Dfa& dfa, const ClassificationJsonContext& context) {
    ojson j;
    j["alphabet"] = c.alphabet;
    j["alphabet_inferred"] = context.alphabet_inferred;
    if (context.input) j["input"] = *context.input;
    j["fragment"] = or_null(context.fragment);
    j["states"] = c.states;
    ojson cls;
    for (const auto& row : class_table()) cls[to_string(row.id())] = or_null(c.classes.at(row.id()));
    j["classes"] = cls;
    j["definite_degree"] = or_null(c.definite_degree);
    ojson lk = ojson::object(), hk = ojson::object();
    for (const auto& [k, v] : c.local_k) lk[std::to_string(k)] = to_string(v);
    for (const auto& [k, v] : c.hybrid_k) hk[std::to_string(k)] = to_string(v);
    j[class_name(ClassKind::LocalK)] = lk;  // the window answers by k: "local_k", "hybrid_k"
    j[class_name(ClassKind::HybridK)] = hk;
    ojson pred, reasons, witnesses = ojson::object();
    for (const auto& arch : predicted_architectures(context.max_k)) {
        const ArchPrediction p = predict(c, arch);
        const std::string name = to_string(arch);
        pred[name] = to_string(p.prediction);
        reasons[name] = explain_prediction(c, p, &dfa);
        if (auto w = labelled_witness(p, dfa))
            witnesses[name] = {{"accepted", format_word(c.alphabet, w->first)}, {"rejected", format_word(c.alphabet, w->second)}};
    }
    j["predictions"] = pred;
    j["prediction_reasons"] = reasons;
    j["witnesses"] = witnesses;
    ojson certs = ojson::object();
    for (const auto& [id, cert] : c.certificates) certs[to_string(id)] = ojson::parse(certificate_to_json(cert, dfa));
    for (const auto& [id, why] : c.null_reasons) certs[to_string(id)] = {{"class", to_string(id)}, {"member", nullptr}, {"reason", why}};
    j["certificates"] = certs;
    if (context.subregular) j["subregular"] = subregular_summary_json(*context.subregular);
    return j;
}

}  // namespace ltlkit::automata::algebra
