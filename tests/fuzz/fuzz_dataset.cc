// Fuzz target: the dataset reader. The input is split at the first 0x00 byte into meta.json and
// train.tsv, written into a temporary folder.
#include <vector>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "automata/dataset.hh"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ltlkit;
    if (size > 1 << 16) return 0;
    std::string in(reinterpret_cast<const char*>(data), size);
    auto cut = in.find('\0');
    std::string meta = in.substr(0, cut);
    std::string train = cut == std::string::npos ? "" : in.substr(cut + 1);
    std::string tmpl_s = (std::filesystem::temp_directory_path() / "ltlkit-fuzz-dataset-XXXXXX").string();
    std::vector<char> tmpl(tmpl_s.begin(), tmpl_s.end());
    tmpl.push_back(0);
    if (!mkdtemp(tmpl.data())) return 0;
    std::filesystem::path dir(tmpl.data());
    std::ofstream(dir / "meta.json") << meta;
    std::ofstream(dir / "train.tsv") << train;
    (void)automata::read_dataset(dir.string(), true);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    return 0;
}
