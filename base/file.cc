#include "base/file.hh"

#include <algorithm>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

namespace ltlkit {

namespace {
// What a non-regular file is, for the messages.
const char* file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "not a regular file";
}
}  // namespace

Result<std::string> read_file(const std::string& path) {
    // O_NONBLOCK: opening a FIFO that no process writes must not block; only regular files are
    // read (a FIFO, /dev/zero or a terminal would hang or never end), whole, then closed.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return make_error(path + ": cannot open file for reading: " + std::strerror(errno));
    struct stat st{};
    if (::fstat(fd, &st) != 0) {
        const std::string why = std::strerror(errno);
        ::close(fd);
        return make_error(path + ": cannot read file: " + why);
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return io_error(path + ": is a directory, not a file");
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return make_error(path + ": is " + file_kind(st.st_mode) +
                          ", not a regular file; ltlkit reads its input files whole, so give a regular file");
    }
    std::string out;
    out.reserve(static_cast<std::size_t>(std::max<off_t>(st.st_size, 0)));
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            const std::string why = std::strerror(errno);
            ::close(fd);
            return make_error(path + ": cannot read file: " + why);
        }
        out.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return out;
}

namespace {
Result<bool> write_all(int fd, const std::string& content, const std::string& what) {
    const char* p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t w = ::write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR) continue;
            return io_error(what + ": cannot write: " + std::strerror(errno));
        }
        p += w;
        left -= static_cast<std::size_t>(w);
    }
    return true;
}
}  // namespace

// Whether `path` is, or reaches through symbolic links, a descriptor of this process
// (/dev/stdout -> /proc/self/fd/1 -> a pipe or the file the shell opened): written into, never
// replaced, so that `-o /dev/stdout >> log` appends to log.
bool through_process_fd(std::filesystem::path p) {
    for (int hops = 0; hops < 40; ++hops) {
        const std::string s = p.string();
        if (s.rfind("/proc/", 0) == 0 || s.rfind("/dev/fd/", 0) == 0) return true;
        std::error_code ec;
        if (!std::filesystem::is_symlink(p, ec)) return false;
        const std::filesystem::path next = std::filesystem::read_symlink(p, ec);
        if (ec) return false;
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    return false;
}

Result<bool> write_output_file(const std::string& path, const std::string& content) {
    struct stat st{};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return write_file_atomic(path, content);
        return io_error(path + ": cannot write: " + std::strerror(errno));
    }
    const bool link = S_ISLNK(st.st_mode);
    if (link && ::stat(path.c_str(), &st) != 0)
        return io_error(path + ": is a symbolic link to a file that does not exist (" + std::strerror(errno) + ")");
    const bool direct = S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || (S_ISREG(st.st_mode) && link && through_process_fd(path));
    std::string target = path;
    if (link && S_ISREG(st.st_mode) && !direct) {
        // Written through: the link stays, its target gets the content (as a shell's `>` does).
        std::error_code ec;
        target = std::filesystem::canonical(path, ec).string();
        if (ec) return io_error(path + ": cannot resolve the symbolic link: " + ec.message());
    }
    if (direct) {
        // /dev/null, /dev/stdout, a terminal or a pipe: written into directly, never renamed
        // over (that would replace the device by a regular file). A FIFO without a reader is
        // refused rather than waited for; a file reached through /proc/self/fd is appended to.
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (S_ISREG(st.st_mode) ? O_APPEND : 0));
        if (fd < 0)
            return io_error(path + ": cannot open " + file_kind(st.st_mode) + " for writing: " +
                            (errno == ENXIO ? std::string("no process reads it") : std::strerror(errno)));
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        auto w = write_all(fd, content, path);
        if (::close(fd) != 0 && w.ok()) return io_error(path + ": cannot write: " + std::strerror(errno));
        return w;
    }
    if (S_ISREG(st.st_mode)) return write_file_atomic(target, content);
    if (S_ISDIR(st.st_mode)) return io_error(path + ": is a directory, not a file");
    return io_error(path + ": is " + std::string(file_kind(st.st_mode)) + "; ltlkit writes only regular files, "
                    "character devices and pipes");
}

Result<bool> write_file_atomic(const std::string& path, const std::string& content) {
    std::string tmpl = path + ".tmp.XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    const int fd = mkstemp(buf.data());
    if (fd < 0) return io_error(path + ": cannot create a temporary file: " + std::strerror(errno));
    const std::string tmp(buf.data());
    if (auto w = write_all(fd, content, path); !w.ok()) {
        ::close(fd);
        ::unlink(tmp.c_str());
        return w.error();
    }
    ::fchmod(fd, 0644);
    if (::close(fd) != 0) {
        const std::string why = std::strerror(errno);
        ::unlink(tmp.c_str());
        return io_error(path + ": cannot write: " + why);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        ::unlink(tmp.c_str());
        return io_error(path + ": cannot rename the temporary file into place: " + why);
    }
    return true;
}

bool is_temporary_name(const std::string& name, std::string* stem) {
    const auto pos = name.rfind(".tmp");
    if (pos == std::string::npos || pos == 0) return false;
    const std::string rest = name.substr(pos + 4);
    bool temp = rest.empty();
    if (rest.size() == 7 && rest[0] == '.') {
        temp = true;
        for (std::size_t i = 1; i < rest.size(); ++i)
            if (!std::isalnum(static_cast<unsigned char>(rest[i]))) temp = false;
    }
    if (temp && stem) *stem = name.substr(0, pos);
    return temp;
}

void remove_stale_temporaries(const std::string& dir, const std::function<bool(const std::string&)>& ours) {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::string stem;
        if (!is_temporary_name(it->path().filename().string(), &stem) || !ours(stem)) continue;
        std::error_code ec2;
        if (it->is_regular_file(ec2) && !it->is_symlink(ec2)) fs::remove(it->path(), ec2);
    }
}

void remove_stale_temporaries(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code ec2;
        if (is_temporary_name(it->path().filename().string()) && it->is_regular_file(ec2)) fs::remove(it->path(), ec2);
    }
}

}  // namespace ltlkit
