#include "automata/lock.hh"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

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

Result<FolderLock> lock_folder(const std::string& dir, const std::string& what) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return io_error(dir + ": cannot create directory: " + ec.message());
    const std::string path = (fs::path(dir) / ".lock").string();
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return io_error(path + ": cannot open the folder's lock file: " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        std::string holder;
        if (err == EWOULDBLOCK) {
            char buf[256] = {};
            const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
            holder = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
            while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
            for (char& c : holder)
                if (static_cast<unsigned char>(c) < 0x20) c = ' ';
        }
        ::close(fd);
        if (err != EWOULDBLOCK) return io_error(path + ": cannot lock: " + std::strerror(err));
        return make_error(dir + " is in use by another process" + (holder.empty() ? "" : " (" + holder + ")") +
                          "; wait for it to finish or stop it");
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
    return lock;
}

}  // namespace ltlkit::automata
