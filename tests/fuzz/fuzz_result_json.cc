// Fuzz target: the run-result reader (result.json of a training run), and its round-trip.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "neural/run.hh"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ltlkit;
    if (size > 1 << 18) return 0;
    auto r = neural::result_from_json(std::string(reinterpret_cast<const char*>(data), size));
    if (!r.ok()) {
        // An error quotes a bounded excerpt of the input, built without recursion (deep JSON).
        if (r.error().render().size() > 4000) std::abort();  // 500 + 200 characters, 4 bytes at most each
        return 0;
    }
    auto again = neural::result_from_json(neural::result_to_json(r.value()));
    if (!again.ok()) std::abort();  // what we write we must read back
    return 0;
}
