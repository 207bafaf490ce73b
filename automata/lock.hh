// Advisory ownership of an output folder: one process at a time writes into a dataset folder, a
// run folder or a verify folder. flock(2) on FOLDER/.lock, released by the kernel when the process
// ends (also on kill -9), so a lock can never go stale; the file names its holder for the message
// the second process prints. The file is emptied when the lock is released, so a folder at rest
// holds an empty .lock whatever process last wrote into it.
#pragma once

#include <string>

#include "base/error.hh"

namespace ltlkit::automata {

class FolderLock {
public:
    FolderLock() = default;
    FolderLock(FolderLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    FolderLock& operator=(FolderLock&& o) noexcept;
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
    ~FolderLock();
    bool held() const { return fd_ >= 0; }

private:
    friend Result<FolderLock> lock_folder(const std::string& dir, const std::string& what);
    int fd_ = -1;
};

// Creates `dir` when missing and takes its lock without waiting. `what` describes the holder
// ("ltlkit verify", "ltlkit train") for the message of a process that finds the folder taken:
//   "DIR is in use by another process (ltlkit verify, pid 1234, since 2026-12-01 03:04:05 UTC);
//    wait for it to finish or stop it"  (exit 2).
// I/O errors (cannot create the folder or the lock file) exit 4.
Result<FolderLock> lock_folder(const std::string& dir, const std::string& what);

// The same "DIR is in use by another process (...)" error (exit 2) when another process holds
// DIR's lock, without creating anything: for a command that reads a folder before it locks it
// (`eval RUN` while `train` writes RUN would otherwise see a half-made run).
Result<bool> check_folder_free(const std::string& dir);

}  // namespace ltlkit::automata
