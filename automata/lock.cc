#include "automata/lock.hh"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "base/test_gate.hh"

namespace ltlkit::automata {

FolderLock& FolderLock::operator=(FolderLock&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) {
            if (::ftruncate(fd_, 0) != 0) {
            }
            ::close(fd_);
        }
        fd_ = o.fd_;
        o.fd_ = -1;
    }
    return *this;
}

FolderLock::~FolderLock() {
    if (fd_ < 0) return;
    // An idle folder's lock file is empty (so finished outputs do not differ by a pid or a time);
    // closing the descriptor releases the flock.
    if (::ftruncate(fd_, 0) != 0) {
    }
    ::close(fd_);
}

namespace {
// "DIR is in use by another process (HOLDER); wait for it to finish or stop it", HOLDER read
// from the lock file `fd`.
Error in_use_error(const std::string& dir, int fd) {
    char buf[256] = {};
    const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
    std::string holder = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
    while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
    for (char& c : holder)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    return make_error(dir + " is in use by another process" + (holder.empty() ? "" : " (" + holder + ")") +
                      "; wait for it to finish or stop it");
}
}  // namespace

Result<bool> check_folder_free(const std::string& dir) {
    const std::string path = (std::filesystem::path(dir) / ".lock").string();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return true;  // no lock file (or not one ltlkit made): nobody holds it
    struct stat st{};
    bool busy = false;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK)
        busy = true;
    if (busy) {
        Error e = in_use_error(dir, fd);
        ::close(fd);
        return e;
    }
    ::close(fd);  // releases the shared lock taken for the test
    return true;
}

Result<FolderLock> lock_folder(const std::string& dir, const std::string& what) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return io_error(dir + ": cannot create directory: " + ec.message());
    const std::string path = (fs::path(dir) / ".lock").string();
    // Never through a symbolic link, and only a regular file: the lock file is truncated and
    // written, so a link planted as DIR/.lock would otherwise truncate its target (O_NONBLOCK: a
    // FIFO planted there must not block the open).
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0 && errno == ELOOP)
        return make_error(path + ": is a symbolic link; ltlkit never writes through one there (remove it)");
    if (fd < 0) return io_error(path + ": cannot open the folder's lock file: " + std::strerror(errno));
    struct stat st{};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return make_error(path + ": is not a regular file; ltlkit keeps its lock in a regular file there (remove it)");
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        if (err != EWOULDBLOCK) {
            ::close(fd);
            return io_error(path + ": cannot lock: " + std::strerror(err));
        }
        Error e = in_use_error(dir, fd);
        ::close(fd);
        return e;
    }
    // The holder's description, for the message of the next process that tries.
    char when[32] = "?";
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    if (::gmtime_r(&now, &tm)) std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    const std::string text = what + ", pid " + std::to_string(::getpid()) + ", since " + when + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, text.data(), text.size(), 0) < 0) {
        // The description is a courtesy; the lock itself is held.
    }
    FolderLock lock;
    lock.fd_ = fd;
    test_gate("LTLKIT_TEST_GATE_LOCKED");  // a test holds the holder here (base/test_gate.hh)
    return lock;
}

}  // namespace ltlkit::automata
