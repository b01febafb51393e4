// addon.cc: the native half of frd's Node.js binding (lib/index.js is the other half).
//
// A Walker runs one walk on frd's pull iterator (frd_walk_iter_open(), frd.h): the walk runs
// ahead on frd's own threads, with at most highWaterMark * batchSize records buffered (the
// iterator's bound: its workers wait for room while JavaScript lags). The binding keeps no
// queue of its own. Batches are pulled on libuv's thread pool (uv_queue_work): a fetch takes
// the iterator's records until it has a batch for JavaScript (names joined by NUL, their
// parent directories, types and, when asked, metadata in typed arrays), and the loop thread
// hands it to the callback waiting in next(), then starts the next fetch at once, so the
// next batch is made while JavaScript takes this one apart. Neither the loop thread nor a
// wake-up per batch of the walk's workers is needed: the fetch is the iterator's consumer,
// and the loop learns that a batch is ready when the fetch's work completes. A fetch waits
// for the walk in steps of kWaitMs (frd_walk_iter_wait()), so a cancel is seen within one.
// runSync() pulls the whole walk on the calling thread (for readdirSync). With linkTargets,
// xattrs or linkGroups a batch also carries, for the entries that have any, their link
// target, extended attributes and hard-link group (Extra): nothing for the others.
//
// A batch's numbers (types, directory starts, name ends, metadata) sit in one malloc'd block
// that the fetch fills in place and that JavaScript then owns as an external ArrayBuffer (its
// typed arrays are views into it; its finalizer gives it back, see below): the loop thread
// copies and zeroes nothing but the two strings. The batch is handed to JavaScript as the
// callback's arguments (no array to fill and take apart); a batch whose names are all ASCII
// comes with each name's end offset, so JavaScript slices the names out without searching,
// and its strings are made as Latin-1 (a copy, no UTF-8 decoding).
//
// Memory is recycled while walks run: the ArrayBuffer's finalizer gives a full batch's block
// back to a pool that fetches take from, and a handed-over batch's strings wait in its walk
// for the next batch. Freed instead, the blocks went back to the worker threads' malloc
// arenas from the loop thread, which trimmed them (madvise, a TLB flush on every CPU) and
// the next batch faulted the pages in again.
//
// Walks dropped unfinished: a walk parks once the iterator's buffer is full, and the bytes
// that buffer may hold are reported to V8 (AdjustExternalMemory) while the walk is open. Its
// iterator's FinalizationRegistry (lib/index.js) cancels it when collected, and Walks below
// makes V8 collect when many walks are open, so parked walks stay bounded without the
// program asking for a collection. A parked walk does not keep the process alive; as the
// environment ends (exit, a worker terminated) the open walks are cancelled and closed
// before Node goes on (Walks::OnEnd). cancel(callback) calls back once the walk's threads
// are joined and its descriptors closed (frd_walk_iter_close(), run on the thread pool).
#include "frd.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fnmatch.h>
#include <memory>
#include <mutex>
#include <napi.h>
#include <string>
#include <uv.h>
#include <v8.h> // LowMemoryNotification() only: see Walks below
#include <vector>

namespace
{

constexpr unsigned kMaxWorkers = 8; // frd_walk_options.workers is at most 8
// Bounds of the options, as lib/validate.js checks them (the addon checks them again, so
// that no value can make it allocate without bound).
constexpr uint32_t kMaxBatch = 65536;      // entries per batch
constexpr uint32_t kMaxQueue = 64;         // highWaterMark: batches the walk buffers ahead
constexpr size_t kNumFields = 13;          // doubles per entry with stats (see lib/index.js)
constexpr size_t kNsFields = 4;            // int64 ns times per entry with stats
constexpr uint32_t kMaxXattrValue = 65536; // xattrValueMax: Linux's largest value (XATTR_SIZE_MAX)
// How long a fetch waits for the walk before it looks whether the walk was cancelled (ms).
constexpr unsigned kWaitMs = 10;
// The bytes the iterator may hold per record it buffers: the record, its entry (with stats;
// a walk of names and types has none) and its strings (the iterator's first arena is 128
// bytes a record).
constexpr size_t kRecordBytes =
    sizeof(struct frd_walk_iter_record) + sizeof(struct frd_entry) + 128;

// The layout of a batch's block, for `cap` entries: with stats, kNumFields doubles and
// kNsFields int64 per entry first, then the directory starts and the name ends (uint32) and
// the types (uint8).
struct Layout {
    size_t num = 0, ns = 0, dirStart = 0, nameEnd = 0, types = 0, size = 0; // byte offsets
    Layout(size_t cap, bool stats)
    {
        size_t off = 0;
        if (stats) {
            ns = cap * kNumFields * sizeof(double);
            off = ns + cap * kNsFields * sizeof(int64_t);
        }
        dirStart = off;
        nameEnd = dirStart + cap * sizeof(uint32_t);
        types = nameEnd + cap * sizeof(uint32_t);
        size = types + cap;
    }
};

// Full batches' blocks kept for reuse while any walk runs (at most kPoolMax; none once the
// last walk has ended: blocks given back then are freed). Any thread may take and give.
class BlockPool
{
  public:
    // A block of `size` bytes: a pooled one of that size, else a new one (nullptr: no memory).
    unsigned char *Take(size_t size)
    {
        {
            std::lock_guard<std::mutex> lock(mu_);
            for (size_t i = free_.size(); i-- > 0;) {
                if (free_[i].first == size) {
                    unsigned char *p = free_[i].second;
                    free_[i] = free_.back();
                    free_.pop_back();
                    return p;
                }
            }
        }
        return static_cast<unsigned char *>(malloc(size));
    }

    // Takes back a block of `size` bytes from Take() (or a shrunk one: size 0, freed).
    void Give(unsigned char *p, size_t size)
    {
        {
            std::lock_guard<std::mutex> lock(mu_);
            if (size > 0 && walks_ > 0 && free_.size() < kPoolMax) {
                free_.emplace_back(size, p);
                return;
            }
        }
        free(p);
    }

    void WalkStarted()
    {
        std::lock_guard<std::mutex> lock(mu_);
        walks_++;
    }

    void WalkEnded()
    {
        std::vector<std::pair<size_t, unsigned char *>> drop;
        {
            std::lock_guard<std::mutex> lock(mu_);
            if (--walks_ == 0) {
                drop.swap(free_);
            }
        }
        for (auto &f : drop) {
            free(f.second);
        }
    }

  private:
    static constexpr size_t kPoolMax = 16;
    std::mutex mu_;
    size_t walks_ = 0;
    std::vector<std::pair<size_t, unsigned char *>> free_;
};

// The process's pool, never destroyed (finalizers may run during exit).
BlockPool &Pool()
{
    static BlockPool *pool = new BlockPool();
    return *pool;
}

// One extended attribute of an entry, copied out of its record (linkTargets etc. below).
struct XattrCopy {
    std::string name;
    std::string value;
    bool tooLong; // longer than xattrValueMax: no value
};

// What an entry carries beyond its name, type and stats, with the options linkTargets,
// xattrs and linkGroups: kept only for the entries that have any of it (symbolic links,
// entries with extended attributes, non-directories with nlink > 1), so the batch holds a
// short list, and nothing at all without the options.
struct Extra {
    uint32_t index = 0;     // the entry's index in its batch
    bool hasTarget = false; // a symbolic link whose target was read
    std::string target;     // its target's bytes
    std::vector<XattrCopy> xattrs;
    uint64_t group = 0;    // its hard-link group (0: none)
    bool hasFirst = false; // not the group's first visit: `first` names that one
    std::string first;     // the path below the root of the group's first visit
};

// A batch for JavaScript, filled by one fetch (or by runSync) and handed over by the loop.
struct Batch {
    std::string names;              // each name (or relative path) followed by a NUL
    std::string dirs;               // each parent directory (relative) followed by a NUL
    unsigned char *block = nullptr; // Layout; owned here until ToJs hands it to an ArrayBuffer
    size_t blockSize = 0;           // its bytes
    size_t dirCount = 0;            // directory groups: dirStart[0..dirCount)
    size_t lastDirOff = 0;          // where the current group's directory starts in dirs
    uint64_t lastParent = 0;        // the iterator's number of that directory (parent_id)
    size_t count = 0;
    bool ascii = true;         // every name is ASCII (set once the batch is full)
    std::vector<Extra> extras; // linkTargets, xattrs, linkGroups: entries that have any
    Batch() = default;
    ~Batch()
    {
        GiveBlock();
    }
    void GiveBlock()
    {
        if (block != nullptr) {
            Pool().Give(block, blockSize);
            block = nullptr;
        }
    }
    // Empties the batch for reuse, keeping the strings' memory (its block is gone).
    void Clear()
    {
        GiveBlock();
        names.clear();
        dirs.clear();
        dirCount = 0;
        lastDirOff = 0;
        lastParent = 0;
        count = 0;
        ascii = true;
        extras.clear();
    }
    Batch(const Batch &) = delete;
    Batch &operator=(const Batch &) = delete;
};

struct Config {
    std::string root;
    size_t relOff = 0; // where the path below the root starts in a visited path
    bool stats = false;
    bool bigint = false; // stats as 64-bit integers (BigUint64Array) instead of doubles
    bool ignoreErrors = false;
    bool collectErrors = false; // errors below the root kept and handed over; the walk goes on
    bool relNames = false;      // names holds the path below the root instead of the name
    bool linkTargets = false;   // FRD_WALK_LINK_TARGETS
    bool xattrs = false;        // FRD_WALK_XATTRS
    bool linkGroups = false;    // FRD_WALK_LINK_GROUPS
    bool extras = false;        // any of the three
    unsigned typeMask = 0xff;
    std::vector<std::string> nameGlobs; // matched against the entry's name
    std::vector<std::string> pathGlobs; // with a '/': matched against the relative path
    size_t batchSize = 2048;
    // gitignore: git's rules (opts.ignore), freed with the walk's state.
    std::unique_ptr<struct frd_ignore, void (*)(struct frd_ignore *)> ignore{nullptr,
                                                                             frd_ignore_free};
    struct frd_walk_options opts; // opts.max_buffered: highWaterMark * batchSize records
    Layout layout{0, false};      // of every batch (set once batchSize and stats are known)
};

class Walker;
struct Walks;

// An error below the root kept by errors: 'collect' (made a JavaScript error on the loop).
struct ErrorRecord {
    int code;
    const char *syscall;
    std::string path;
};

// One walk's state. The iterator's consumer is one fetch at a time (a work item on libuv's
// pool, or runSync's thread); the loop thread touches the fields a fetch fills only between
// fetches (uv_queue_work orders them), so they need no lock. The walk's own threads read
// cfg and globBuf only (OnError, OnChildren).
struct State {
    Config cfg;
    std::string globBuf[kMaxWorkers]; // OnChildren's, one per worker
    struct frd_walk_iter *it = nullptr;
    std::atomic<bool> cancelled{false}; // set by the loop; a fetch in progress stops
    // The iterator's batch being taken apart, across fetches.
    const struct frd_walk_iter_record *recs = nullptr;
    size_t nrecs = 0, pos = 0;
    bool ended = false; // the iterator said the end (result)
    int result = 0;
    bool hasError = false; // the error the walk ends with
    int errCode = 0;
    std::string errSyscall;
    std::string errPath;
    std::vector<ErrorRecord> collected; // errors: 'collect': not yet handed over
    std::unique_ptr<Batch> ready;       // fetched, not yet handed over
    std::unique_ptr<Batch> spare;       // handed over: its strings' memory reused
    // Loop thread only.
    uv_loop_t *loop = nullptr;
    uv_work_t work;       // the fetch (or the close) in progress
    bool busy = false;    // a work item is queued or running
    bool closing = false; // the close has started
    uv_async_t async;     // next()'s wake-up; referenced while JavaScript waits on the walk
    Walker *owner = nullptr;
    int64_t held = 0;     // native bytes the walk may hold (reported to V8 while open)
    int64_t reported = 0; // the part of `held` reported to V8
    Walks *walks = nullptr;
};

const char *SyscallOf(unsigned depth, enum frd_op call)
{
    if (depth == 0) {
        return "scandir";
    }
    switch (call) {
    case FRD_OP_OPEN:
    case FRD_OP_READ_DIR:
    case FRD_OP_LOOP:
        return "scandir";
    case FRD_OP_STAT:
        return "lstat";
    case FRD_OP_READLINK:
        return "readlink";
    default:
        return frd_op_name(call);
    }
}

void SetError(State *st, int code, const char *syscall, const std::string &path)
{
    if (!st->hasError) {
        st->hasError = true;
        st->errCode = code;
        st->errSyscall = syscall;
        st->errPath = path;
    }
}

// On the walk's threads, after the error's record is queued: whether the walk goes on.
enum frd_action OnError(const struct frd_walk_error *err, void *udata)
{
    const auto *st = static_cast<const State *>(udata);
    if (err->depth > 0 && (st->cfg.ignoreErrors || st->cfg.collectErrors)) {
        return FRD_ACTION_CONTINUE;
    }
    return FRD_ACTION_STOP;
}

double Ms(int64_t ns)
{
    return static_cast<double>(ns) / 1e6;
}

// Whether every byte of `s` is ASCII (8 bytes at a time: one pass over a batch's names).
bool IsAscii(const std::string &s)
{
    const char *p = s.data();
    const size_t n = s.size();
    uint64_t high = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, sizeof(w));
        high |= w;
    }
    for (; i < n; i++) {
        high |= static_cast<unsigned char>(p[i]);
    }
    return (high & 0x8080808080808080u) == 0;
}

// An error record: ignored, kept (errors: 'collect') or the error the walk ends with.
void TakeError(State *st, const struct frd_walk_iter_record &r)
{
    if (r.depth > 0 && st->cfg.ignoreErrors) {
        return;
    }
    const struct frd_walk_iter_extra &x = *r.extra; // never NULL in an error record
    std::string path = r.depth == 0 ? st->cfg.root : std::string(r.path, r.path_len);
    if (r.depth > 0 && st->cfg.collectErrors) {
        st->collected.push_back({x.code, SyscallOf(r.depth, x.call), std::move(path)});
        return;
    }
    SetError(st, x.code, SyscallOf(r.depth, x.call), path);
}

// Keeps what an entry record carries with linkTargets, xattrs and linkGroups (its extra part),
// if it carries any of it, as the batch's next entry's Extra (copied: the record goes with
// the next pull).
void TakeExtra(const Config &cfg, Batch *b, const struct frd_walk_iter_record &rec)
{
    if (rec.extra == nullptr) { // a plain visit
        return;
    }
    const struct frd_walk_iter_extra &r = *rec.extra;
    const bool target = cfg.linkTargets && r.link_target != nullptr;
    const bool xattrs = cfg.xattrs && r.xattr_count > 0;
    const bool group = cfg.linkGroups && r.link_group != 0;
    if (!target && !xattrs && !group) {
        return;
    }
    Extra &x = b->extras.emplace_back();
    x.index = static_cast<uint32_t>(b->count);
    if (target) {
        x.hasTarget = true;
        x.target.assign(r.link_target, r.link_target_len);
    }
    if (xattrs) {
        x.xattrs.reserve(r.xattr_count);
        for (size_t i = 0; i < r.xattr_count; i++) {
            const struct frd_xattr &a = r.xattrs[i];
            XattrCopy &c = x.xattrs.emplace_back();
            c.name.assign(a.name, a.name_len);
            c.tooLong = a.too_long;
            if (!a.too_long && a.value_len > 0) {
                c.value.assign(static_cast<const char *>(a.value), a.value_len);
            }
        }
    }
    if (group) {
        x.group = r.link_group;
        if (r.link_first != nullptr) {
            x.hasFirst = true;
            const size_t off = std::min(cfg.relOff, r.link_first_len);
            x.first.assign(r.link_first + off, r.link_first_len - off);
        }
    }
}

// Appends a record to the batch (an entry of a type asked for), or takes its error.
void Take(State *st, Batch *b, const struct frd_walk_iter_record &r)
{
    if (r.kind == FRD_WALK_ITER_ERROR) {
        TakeError(st, r);
        return;
    }
    if (r.kind != FRD_WALK_ITER_ENTRY) {
        return;
    }
    if (r.is_root) {
        if (r.type != FRD_TYPE_DIR) {
            SetError(st, FRD_ENOTDIR, "scandir", st->cfg.root);
        }
        return;
    }
    if (!(st->cfg.typeMask & (1u << r.type))) {
        return;
    }
    const Layout &lay = st->cfg.layout;
    const char *rel = r.path + st->cfg.relOff;
    size_t relLen = r.path_len - st->cfg.relOff;
    size_t nameLen = r.name_len <= relLen ? r.name_len : relLen;
    size_t dirLen = relLen - nameLen;
    if (dirLen > 0) {
        dirLen--; // the '/' before the name
    }
    // A new directory group: another directory number, or (no number) another path.
    if (b->dirCount == 0 || r.parent_id != b->lastParent ||
        (r.parent_id == 0 && (b->dirs.size() - 1 - b->lastDirOff != dirLen ||
                              memcmp(b->dirs.data() + b->lastDirOff, rel, dirLen) != 0))) {
        b->lastParent = r.parent_id;
        b->lastDirOff = b->dirs.size();
        b->dirs.append(rel, dirLen);
        b->dirs.push_back('\0');
        const uint32_t start = static_cast<uint32_t>(b->count);
        memcpy(b->block + lay.dirStart + b->dirCount++ * sizeof(uint32_t), &start, sizeof(start));
    }
    const char *name = st->cfg.relNames ? rel : rel + relLen - nameLen;
    const size_t len = st->cfg.relNames ? relLen : nameLen;
    b->names.append(name, len);
    const uint32_t end = static_cast<uint32_t>(b->names.size());
    memcpy(b->block + lay.nameEnd + b->count * sizeof(uint32_t), &end, sizeof(end));
    b->names.push_back('\0');
    b->block[lay.types + b->count] = r.type;
    if (st->cfg.extras) {
        TakeExtra(st->cfg, b, r);
    }
    const struct frd_entry *e = r.entry; // with stats, never NULL (not a names-only walk)
    if (st->cfg.stats && st->cfg.bigint) {
        // The same 8 bytes a field; the ms times (the last four) are left 0: JavaScript
        // derives them from the ns times, as fs does for BigIntStats.
        const uint64_t num[kNumFields] = {
            e->dev,  e->file_id,          e->mode, e->nlink, e->uid, e->gid, e->rdev,
            e->size, e->alloc_size / 512, 0,       0,        0,      0};
        memcpy(b->block + lay.num + b->count * sizeof(num), num, sizeof(num));
        const int64_t ns[kNsFields] = {e->atime_ns, e->mtime_ns, e->ctime_ns, e->btime_ns};
        memcpy(b->block + lay.ns + b->count * sizeof(ns), ns, sizeof(ns));
    } else if (st->cfg.stats) {
        const double num[kNumFields] = {static_cast<double>(e->dev),
                                        static_cast<double>(e->file_id),
                                        static_cast<double>(e->mode),
                                        static_cast<double>(e->nlink),
                                        static_cast<double>(e->uid),
                                        static_cast<double>(e->gid),
                                        static_cast<double>(e->rdev),
                                        static_cast<double>(e->size),
                                        static_cast<double>(e->alloc_size / 512),
                                        Ms(e->atime_ns),
                                        Ms(e->mtime_ns),
                                        Ms(e->ctime_ns),
                                        Ms(e->btime_ns)};
        memcpy(b->block + lay.num + b->count * sizeof(num), num, sizeof(num));
        const int64_t ns[kNsFields] = {e->atime_ns, e->mtime_ns, e->ctime_ns, e->btime_ns};
        memcpy(b->block + lay.ns + b->count * sizeof(ns), ns, sizeof(ns));
    }
    b->count++;
}

// A batch with room for a full batch's entries, so appends do not reallocate (and copy):
// the walk's spare one (its strings' memory) with a pooled block if there are. nullptr out
// of memory.
std::unique_ptr<Batch> NewBatch(State *st)
{
    std::unique_ptr<Batch> b = std::move(st->spare);
    if (!b) {
        b = std::make_unique<Batch>();
        b->names.reserve(st->cfg.batchSize * (st->cfg.relNames ? 48 : 16));
    }
    b->block = Pool().Take(st->cfg.layout.size);
    if (b->block == nullptr) {
        return nullptr;
    }
    b->blockSize = st->cfg.layout.size;
    return b;
}

// Pulls records from the iterator into a new batch until it holds batchSize entries or the
// walk has ended; a full or last batch goes to st->ready. `poll`: wait in steps of kWaitMs
// and stop early once the walk is cancelled (async walks); else wait in
// frd_walk_iter_next() (runSync).
void Fill(State *st, bool poll)
{
    std::unique_ptr<Batch> b = NewBatch(st);
    if (!b) {
        SetError(st, FRD_ENOMEM, "scandir", st->cfg.root);
        st->ended = true; // the close joins the walk
        return;
    }
    for (;;) {
        while (st->pos < st->nrecs && b->count < st->cfg.batchSize) {
            Take(st, b.get(), st->recs[st->pos++]);
        }
        if (b->count >= st->cfg.batchSize || st->ended) {
            break;
        }
        if (poll) {
            while (frd_walk_iter_wait(st->it, kWaitMs) == 0 && !st->cancelled) {
            }
            if (st->cancelled) {
                return; // (the batch's block goes back to the pool)
            }
        }
        struct frd_walk_iter_batch ib;
        int rc = frd_walk_iter_next(st->it, &ib);
        st->pos = 0;
        if (rc == 1) {
            st->recs = ib.records;
            st->nrecs = ib.count;
        } else {
            st->recs = nullptr;
            st->nrecs = 0;
            st->ended = true;
            st->result = rc;
        }
    }
    if (b->count > 0) {
        b->ascii = IsAscii(b->names);
        st->ready = std::move(b);
    } else {
        b->Clear();
        st->spare = std::move(b);
    }
}

// Drops the entries that match an exclude glob before they are stat'ed or entered.
void OnChildren(const struct frd_walk_entry *dir, struct frd_walk_children *kids, void *udata)
{
    auto *st = static_cast<State *>(udata);
    std::string &buf = st->globBuf[dir->worker % kMaxWorkers];
    size_t n = frd_walk_children_count(kids);
    for (size_t i = 0; i < n; i++) {
        const struct frd_entry *e = frd_walk_children_entry(kids, i);
        bool drop = false;
        for (const std::string &g : st->cfg.nameGlobs) {
            if (fnmatch(g.c_str(), e->name, 0) == 0) {
                drop = true;
                break;
            }
        }
        if (!drop && !st->cfg.pathGlobs.empty()) {
            if (dir->is_root) {
                buf.assign(e->name, e->name_len);
            } else {
                buf.assign(dir->path + st->cfg.relOff, dir->path_len - st->cfg.relOff);
                buf.push_back('/');
                buf.append(e->name, e->name_len);
            }
            for (const std::string &g : st->cfg.pathGlobs) {
                if (fnmatch(g.c_str(), buf.c_str(), FNM_PATHNAME) == 0) {
                    drop = true;
                    break;
                }
            }
        }
        if (drop) {
            frd_walk_children_drop(kids, i);
        }
    }
}
// Throws a JavaScript error of Node's kind: `type` (TypeError or RangeError) with `code`.
template <typename E> bool Refuse(const Napi::Env &env, const char *code, const std::string &msg)
{
    E err = E::New(env, msg);
    err.Set("code", Napi::String::New(env, code));
    err.ThrowAsJavaScriptException();
    return false;
}

// Reads option `key`, an integer in [lo, hi], into *out; else throws a RangeError (lib/index.js
// checks the options first, with messages for users: this keeps the addon safe by itself).
bool IntOption(const Napi::Env &env, const Napi::Object &o, const char *key, double lo, double hi,
               double *out)
{
    Napi::Value v = o.Get(key);
    const double d = v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : NAN;
    if (!(d >= lo && d <= hi) || d != std::floor(d)) {
        return Refuse<Napi::RangeError>(
            env, "ERR_OUT_OF_RANGE",
            std::string("The value of \"") + key +
                "\" is out of range. It must be >= " + std::to_string(static_cast<int64_t>(lo)) +
                " && <= " + std::to_string(static_cast<int64_t>(hi)) + ".");
    }
    *out = d;
    return true;
}

bool ParseConfig(const Napi::Env &env, const Napi::Object &o, Config *cfg)
{
    frd_walk_options_init(&cfg->opts);
    Napi::Value root = o.Get("root");
    if (!root.IsString()) {
        Napi::TypeError::New(env, "root must be a string").ThrowAsJavaScriptException();
        return false;
    }
    cfg->root = root.As<Napi::String>().Utf8Value();
    if (cfg->root.find('\0') != std::string::npos) {
        return Refuse<Napi::TypeError>(env, "ERR_INVALID_ARG_VALUE",
                                       "The argument 'path' must be a string without null bytes");
    }
    cfg->relOff = cfg->root.size();
    if (cfg->root.empty() || cfg->root.back() != '/') {
        cfg->relOff++;
    }
    cfg->stats = o.Get("stats").ToBoolean();
    cfg->bigint = o.Get("bigint").ToBoolean();
    cfg->ignoreErrors = o.Get("ignoreErrors").ToBoolean();
    cfg->collectErrors = o.Get("collectErrors").ToBoolean();
    cfg->relNames = o.Get("relNames").ToBoolean();
    cfg->linkTargets = o.Get("linkTargets").ToBoolean();
    cfg->xattrs = o.Get("xattrs").ToBoolean();
    cfg->linkGroups = o.Get("linkGroups").ToBoolean();
    cfg->extras = !cfg->relNames && (cfg->linkTargets || cfg->xattrs || cfg->linkGroups);
    double typeMask = 0, batchSize = 0, queueLimit = 0, maxDepth = 0, workers = 0;
    double xattrValueMax = 0;
    if (!IntOption(env, o, "typeMask", 0, 0xff, &typeMask) ||
        (!o.Get("xattrValueMax").IsUndefined() && // absent: the library's default
         !IntOption(env, o, "xattrValueMax", 0, kMaxXattrValue, &xattrValueMax)) ||
        !IntOption(env, o, "batchSize", 1, kMaxBatch, &batchSize) ||
        !IntOption(env, o, "queueLimit", 1, kMaxQueue, &queueLimit) ||
        !IntOption(env, o, "maxDepth", -1, INT32_MAX, &maxDepth) ||
        !IntOption(env, o, "workers", 0, kMaxWorkers, &workers)) {
        return false;
    }
    cfg->typeMask = static_cast<unsigned>(typeMask);
    cfg->batchSize = static_cast<size_t>(batchSize);
    // The walk buffers what JavaScript has not taken up to queueLimit batches' worth of
    // records (the iterator's bound, the batch being filled included).
    cfg->opts.max_buffered = cfg->batchSize * static_cast<size_t>(queueLimit);
    cfg->layout = Layout(cfg->batchSize, cfg->stats);
    // Entries are handed out by path: no callback reaches one through its directory.
    unsigned flags = FRD_WALK_NO_PARENT_FD | (cfg->stats ? 0 : FRD_WALK_NAMES_ONLY);
    if (o.Get("sort").ToBoolean()) {
        flags |= FRD_WALK_ORDERED;
    }
    if (!o.Get("hidden").ToBoolean()) {
        flags |= FRD_WALK_SKIP_HIDDEN;
    }
    if (cfg->extras) {
        flags |= (cfg->linkTargets ? FRD_WALK_LINK_TARGETS : 0) |
                 (cfg->xattrs ? FRD_WALK_XATTRS : 0) | (cfg->linkGroups ? FRD_WALK_LINK_GROUPS : 0);
        cfg->opts.xattr_value_max = static_cast<size_t>(xattrValueMax); // 0: the library's 64 KiB
    }
    cfg->opts.flags = flags;
    cfg->opts.fields = cfg->stats ? FRD_FIELDS_ALL : FRD_FIELD_TYPE;
    cfg->opts.follow = o.Get("followSymlinks").ToBoolean() ? FRD_FOLLOW_ALL : FRD_FOLLOW_ROOTS;
    cfg->opts.max_depth = static_cast<int>(maxDepth);
    cfg->opts.workers = static_cast<unsigned>(workers);
    Napi::Value ex = o.Get("exclude");
    if (ex.IsArray()) {
        Napi::Array arr = ex.As<Napi::Array>();
        for (uint32_t i = 0; i < arr.Length(); i++) {
            Napi::Value gv = arr.Get(i);
            std::string g =
                gv.IsString() ? gv.As<Napi::String>().Utf8Value() : std::string(1, '\0');
            if (g.find('\0') != std::string::npos) {
                return Refuse<Napi::TypeError>(env, "ERR_INVALID_ARG_VALUE",
                                               "exclude: a glob is a string without null bytes");
            }
            (g.find('/') == std::string::npos ? cfg->nameGlobs : cfg->pathGlobs).push_back(g);
        }
    }
    if (o.Get("gitignore").ToBoolean()) {
        // What git ignores is neither stat'ed nor handed out (frdfind -gitignore's rules).
        struct frd_ignore *ig = nullptr;
        int rc = frd_ignore_new(&ig, FRD_IGNORE_GIT);
        if (rc < 0) {
            return Refuse<Napi::Error>(env, frd_err_name(rc), frd_strerror(rc));
        }
        cfg->ignore.reset(ig);
        cfg->opts.ignore = ig;
    }
    cfg->opts.on_error = OnError;
    cfg->opts.flags |= FRD_WALK_ROOT_ERRORS_TO_HOOK_ONLY; // OnError passes roots' errors on
    if (!cfg->nameGlobs.empty() || !cfg->pathGlobs.empty()) {
        cfg->opts.on_children = OnChildren;
    }
    return true;
}

Napi::Value MakeError(Napi::Env env, int code, const std::string &syscall, const std::string &path)
{
    std::string name = frd_err_name(code);
    std::string msg = name + ": " + frd_strerror(code) + ", " + syscall + " '" + path + "'";
    Napi::Error err = Napi::Error::New(env, msg);
    err.Set("errno", Napi::Number::New(env, code));
    err.Set("code", Napi::String::New(env, name));
    err.Set("syscall", Napi::String::New(env, syscall));
    err.Set("path", Napi::String::New(env, path));
    return err.Value();
}

// The error a finished walk ends with, or undefined.
Napi::Value WalkError(Napi::Env env, State *st, int result)
{
    if (st->hasError) {
        return MakeError(env, st->errCode, st->errSyscall, st->errPath);
    }
    if (result < 0 && result != FRD_ESTOPPED && result != FRD_ECANCELED) {
        return MakeError(env, result, "scandir", st->cfg.root);
    }
    return env.Undefined();
}

constexpr size_t kBatchArgs = 8; // names, dirs, dirStart, types, nameEnd, num, ns, extras

// A batch's extras (Extra) as one flat array, 5 values an entry that has any: its index,
// linkTarget (string or null), xattrs (an object of name to Buffer, null for a value too
// long; null when it has none), linkGroup (a number, a bigint with bigint; null) and
// linkFirst (the path below the root of the group's first visit; null). undefined when no
// entry of the batch has any.
napi_value ExtrasToJs(Napi::Env env, const Config &cfg, const Batch &b)
{
    if (b.extras.empty()) {
        return env.Undefined();
    }
    Napi::Array arr = Napi::Array::New(env, b.extras.size() * 5);
    uint32_t k = 0;
    for (const Extra &x : b.extras) {
        arr.Set(k++, Napi::Number::New(env, x.index));
        arr.Set(k++, x.hasTarget ? Napi::Value(Napi::String::New(env, x.target)) : env.Null());
        if (x.xattrs.empty()) {
            arr.Set(k++, env.Null());
        } else {
            Napi::Object o = Napi::Object::New(env);
            for (const XattrCopy &c : x.xattrs) {
                o.Set(Napi::String::New(env, c.name),
                      c.tooLong ? Napi::Value(env.Null())
                                : Napi::Value(Napi::Buffer<char>::Copy(env, c.value.data(),
                                                                       c.value.size())));
            }
            arr.Set(k++, o);
        }
        if (x.group == 0) {
            arr.Set(k++, env.Null());
        } else if (cfg.bigint) {
            arr.Set(k++, Napi::BigInt::New(env, x.group));
        } else {
            arr.Set(k++, Napi::Number::New(env, static_cast<double>(x.group)));
        }
        arr.Set(k++, x.hasFirst ? Napi::Value(Napi::String::New(env, x.first)) : env.Null());
    }
    return arr;
}

// The errors kept (errors: 'collect') since the last call, as an array of JavaScript errors,
// or undefined when there are none.
Napi::Value TakeErrors(Napi::Env env, State *st)
{
    std::vector<ErrorRecord> errs;
    errs.swap(st->collected);
    if (errs.empty()) {
        return env.Undefined();
    }
    Napi::Array arr = Napi::Array::New(env, errs.size());
    for (size_t i = 0; i < errs.size(); i++) {
        arr.Set(static_cast<uint32_t>(i),
                MakeError(env, errs[i].code, errs[i].syscall, errs[i].path));
    }
    return arr;
}

// A JavaScript string of the UTF-8 bytes of `s`, made as Latin-1 when they are all ASCII.
napi_value MakeString(napi_env env, const std::string &s, bool ascii)
{
    napi_value v = nullptr;
    if (ascii) {
        napi_create_string_latin1(env, s.data(), s.size(), &v);
    } else {
        napi_create_string_utf8(env, s.data(), s.size(), &v);
    }
    return v;
}

// A batch as the arguments of JavaScript's callback: names, dirs (strings), dirStart, types,
// nameEnd (undefined unless the names are all ASCII), num (Float64Array, or BigUint64Array
// with bigint), ns (undefined without stats), extras (ExtrasToJs). The typed arrays are
// views of the batch's block, which the ArrayBuffer owns from here on (freed by its finalizer).
void ToJs(Napi::Env env, const Config &cfg, Batch &b, napi_value out[kBatchArgs])
{
    const bool ascii = b.ascii;
    out[0] = MakeString(env, b.names, ascii);
    out[1] = MakeString(env, b.dirs, IsAscii(b.dirs));
    Layout lay = cfg.layout;
    if (b.count < cfg.batchSize) {
        // A partial batch (the last of a worker, or a small directory): its sections moved
        // down to fit `count` entries and the block shrunk, so Stats kept from it do not
        // hold a full batch's memory. Each section moves to a lower offset, in order, so
        // no move overwrites one still to come.
        Layout small(b.count, cfg.stats);
        memmove(b.block + small.ns, b.block + lay.ns, b.count * kNsFields * sizeof(int64_t));
        memmove(b.block + small.dirStart, b.block + lay.dirStart, b.dirCount * sizeof(uint32_t));
        memmove(b.block + small.nameEnd, b.block + lay.nameEnd, b.count * sizeof(uint32_t));
        memmove(b.block + small.types, b.block + lay.types, b.count);
        void *shrunk = realloc(b.block, small.size > 0 ? small.size : 1);
        if (shrunk != nullptr) {
            b.block = static_cast<unsigned char *>(shrunk);
        }
        lay = small;
    }
    // The finalizer's hint is the size to give the block back to the pool under (0: shrunk).
    const size_t poolSize = b.count < cfg.batchSize ? 0 : b.blockSize;
    napi_value abv = nullptr;
    napi_value undef = env.Undefined();
    if (napi_create_external_arraybuffer(
            env, b.block, lay.size,
            [](napi_env, void *data, void *hint) {
                Pool().Give(static_cast<unsigned char *>(data), reinterpret_cast<uintptr_t>(hint));
            },
            reinterpret_cast<void *>(static_cast<uintptr_t>(poolSize)), &abv) != napi_ok) {
        // (an exception is pending; the callback's JavaScript does not run)
        Pool().Give(b.block, 0);
        b.block = nullptr;
        std::fill(out + 2, out + kBatchArgs, undef);
        return;
    }
    Napi::ArrayBuffer ab(env, abv);
    b.block = nullptr; // V8 counts the ArrayBuffer's bytes itself
    out[2] = Napi::Uint32Array::New(env, b.dirCount, ab, lay.dirStart);
    out[3] = Napi::Uint8Array::New(env, b.count, ab, lay.types);
    out[4] = ascii ? Napi::Uint32Array::New(env, b.count, ab, lay.nameEnd) : undef;
    out[5] = undef;
    out[6] = undef;
    out[7] = ExtrasToJs(env, cfg, b);
    if (cfg.stats) {
        static_assert(sizeof(double) == sizeof(uint64_t), "a field is 8 bytes either way");
        if (cfg.bigint) {
            out[5] = Napi::TypedArrayOf<uint64_t>::New(env, b.count * kNumFields, ab, lay.num,
                                                       napi_biguint64_array);
        } else {
            out[5] = Napi::Float64Array::New(env, b.count * kNumFields, ab, lay.num);
        }
        out[6] = Napi::TypedArrayOf<int64_t>::New(env, b.count * kNsFields, ab, lay.ns,
                                                  napi_bigint64_array);
    }
}

// Calls JavaScript back from the loop (a batch, the end, a cancel done). Its failure is not
// thrown: it fails only when the environment cannot run JavaScript any more (a worker
// thread being terminated), and node-addon-api's MakeCallback then ends the process
// (napi_fatal_error, as it cannot throw either).
void CallBack(Napi::Env env, Napi::Function cb, size_t argc, const napi_value *argv,
              const Napi::AsyncContext &ctx)
{
    napi_value result = nullptr;
    (void)napi_make_callback(env, ctx, env.Global(), cb, argc, argv, &result);
}

// The walks of one JavaScript environment (its instance data) that hold native resources:
// started and not yet closed. A walk whose iterator was dropped unfinished parks with its
// threads, descriptors and queued batches (bounded) until the garbage collector takes the
// iterator and lib/index.js's FinalizationRegistry cancels it; a program that drops walks
// quickly could make a thousand before V8 sees a reason to collect (their small iterators
// barely weigh on its heap). So when the open walks outnumber `threshold`, the walk that
// would pass it first asks V8 for a full collection (LowMemoryNotification: N-API has no
// call for it), after which the finalizers of the dropped ones cancel them; the threshold
// then doubles over the walks still open, so that a program that really keeps many walks
// open pays a collection per doubling, not one per walk, and halves again as they close.
// So the walks left parked without a consumer stay below about 2 * kGcWalks, with no
// collection asked for by the program.
//
// As the environment ends (the process exits, a worker thread is terminated) the walks still
// open are cancelled, and its teardown waits (an async cleanup hook) until their handles are
// closed: else the loop would call into the addon after Node unloaded it with a worker.
struct Walks {
    static constexpr size_t kGcWalks = 16;
    size_t open = 0;                               // walks started and not closed
    size_t threshold = kGcWalks;                   // open walks that make V8 collect
    std::vector<class Walker *> live;              // the open ones whose Walker still lives
    napi_async_cleanup_hook_handle hook = nullptr; // registered with the first walk
    bool ending = false;                           // the hook has run
    int64_t reported = 0; // bytes the open walks reported to V8 (reportedBytes())

    // A walk is starting.
    void Started(const Napi::Env &env, Walker *w)
    {
        if (hook == nullptr) {
            napi_add_async_cleanup_hook(env, &Walks::OnEnd, this, &hook);
        }
        live.push_back(w);
        if (++open > threshold) {
            v8::Isolate *isolate = v8::Isolate::GetCurrent();
            if (isolate != nullptr) {
                isolate->LowMemoryNotification();
            }
            threshold = 2 * open;
        }
    }

    // Walker `w` is gone or its walk closed.
    void Forget(Walker *w)
    {
        auto it = std::find(live.begin(), live.end(), w);
        if (it != live.end()) {
            *it = live.back();
            live.pop_back();
        }
    }

    // A walk has closed (its threads joined, its memory freed).
    void Closed()
    {
        open--;
        if (threshold > kGcWalks && open < threshold / 4) {
            threshold = std::max(kGcWalks, threshold / 2);
        }
        if (ending && open == 0 && hook != nullptr) {
            napi_remove_async_cleanup_hook(hook);
            hook = nullptr;
        }
    }

    // The environment is ending: stop every open walk; Closed() lets it go on once the last
    // has closed.
    static void OnEnd(napi_async_cleanup_hook_handle handle, void *arg);

    static Walks &Of(const Napi::Env &env)
    {
        Walks *w = env.GetInstanceData<Walks>();
        if (w == nullptr) {
            w = new Walks();
            env.SetInstanceData<Walks, Keep>(w);
        }
        return *w;
    }

    // Not freed with its environment: a walk's handle may close (OnClosed) after the
    // environment's instance data is finalized, as it ends.
    static void Keep(Napi::Env, Walks *)
    {
    }
};

// The fetch and the close run on libuv's pool, one at a time per walk; their completions
// run on the loop thread.
void StartFetch(State *st);
void CloseWhenIdle(State *st);

// One walk started from JavaScript: new Walker(options), next(callback), cancel([callback]).
class Walker : public Napi::ObjectWrap<Walker>
{
  public:
    static Napi::Function Init(Napi::Env env)
    {
        return DefineClass(
            env, "Walker",
            {InstanceMethod("next", &Walker::Next), InstanceMethod("cancel", &Walker::Cancel)});
    }

    explicit Walker(const Napi::CallbackInfo &info)
        : Napi::ObjectWrap<Walker>(info), st_(std::make_unique<State>())
    {
        Napi::Env env = info.Env();
        if (Walks::Of(env).ending) {
            return; // no walk starts (nor error is thrown) as the environment ends
        }
        if (!info[0].IsObject() || !ParseConfig(env, info[0].As<Napi::Object>(), &st_->cfg)) {
            if (!env.IsExceptionPending()) {
                Napi::TypeError::New(env, "options expected").ThrowAsJavaScriptException();
            }
            return;
        }
        st_->owner = this;
        napi_get_uv_event_loop(env, &st_->loop);
        uv_async_init(st_->loop, &st_->async, &Walker::OnAsync);
        st_->async.data = st_.get();
        uv_unref(reinterpret_cast<uv_handle_t *>(&st_->async));
        st_->work.data = st_.get();
        ctx_ = std::make_unique<Napi::AsyncContext>(env, "frd.walk");
        Pool().WalkStarted(); // until OnClosed
        st_->walks = &Walks::Of(env);
        st_->walks->Started(env, this); // until OnClosed
        const char *roots[1] = {st_->cfg.root.c_str()};
        int rc = frd_walk_iter_open(&st_->it, roots, 1, &st_->cfg.opts, st_.get());
        if (rc < 0) {
            st_->it = nullptr;
            st_->ended = true;
            st_->result = rc;
        } else {
            // What the walk may hold: its iterator's buffer, full while JavaScript lags, and
            // a fetched batch's block and strings.
            struct frd_walk_iter_stats is;
            frd_walk_iter_stats(st_->it, &is);
            st_->held = static_cast<int64_t>(is.max_buffered * kRecordBytes + st_->cfg.layout.size +
                                             st_->cfg.batchSize * (st_->cfg.relNames ? 48 : 16));
        }
        Report();
        Ref(); // alive until the walk is closed
    }

    // The Walker is finalized with its walk still open (as the environment ends: else it is
    // kept alive until closed): the walk is stopped, and its state left to the completions
    // still to come, which then close it and free the state.
    ~Walker() override
    {
        if (closed_ || st_->owner == nullptr) { // closed, or never started (bad options)
            return;
        }
        st_->walks->Forget(this);
        pending_.SuppressDestruct();
        for (auto &cb : cancelled_) {
            cb.SuppressDestruct();
        }
        State *st = st_.release();
        st->owner = nullptr;
        st->cancelled = true;
        uv_ref(reinterpret_cast<uv_handle_t *>(&st->async)); // (as in End())
        CloseWhenIdle(st);
    }

    // As the environment ends: stops the walk and closes it.
    void End()
    {
        pending_.Reset(); // no JavaScript runs any more to take the batch
        // Referenced, the handle keeps the loop polling (Node runs it once at a time while
        // the teardown waits) until the walk has closed.
        uv_ref(reinterpret_cast<uv_handle_t *>(&st_->async));
        st_->cancelled = true;
        CloseWhenIdle(st_.get());
    }

    // A fetch has completed (loop thread).
    static void OnFetched(uv_work_t *req, int)
    {
        auto *st = static_cast<State *>(req->data);
        st->busy = false;
        if (st->owner == nullptr || st->cancelled) {
            CloseWhenIdle(st);
            return;
        }
        st->owner->Deliver();
    }

    // The walk's threads were joined and its descriptors closed, and its handle closed:
    // cancel()'s callbacks run now.
    static void OnClosed(uv_handle_t *handle)
    {
        auto *st = static_cast<State *>(handle->data);
        Walker *w = st->owner;
        Pool().WalkEnded();
        if (w == nullptr) { // (~Walker)
            Walks *walks = st->walks;
            delete st;
            walks->Closed();
            return;
        }
        w->closed_ = true;
        st->walks->Forget(w);
        st->ready.reset();
        st->spare.reset();
        w->Report(); // all of it given back
        st->walks->Closed();
        Napi::Env env = w->Env();
        Napi::HandleScope scope(env);
        std::vector<Napi::FunctionReference> cbs;
        cbs.swap(w->cancelled_);
        Napi::FunctionReference pending = std::move(w->pending_);
        if (st->walks->ending) {
            cbs.clear(); // no JavaScript runs any more (Walks::OnEnd)
            pending.Reset();
        }
        if (!pending.IsEmpty()) { // a next() cut short by cancel(): the end, no error
            napi_value end[2 + kBatchArgs];
            std::fill(end, end + 2 + kBatchArgs, env.Undefined());
            end[0] = env.Null();
            end[1] = env.Null();
            CallBack(env, pending.Value(), 2 + kBatchArgs, end, *w->ctx_);
        }
        for (auto &cb : cbs) {
            CallBack(env, cb.Value(), 0, nullptr, *w->ctx_);
        }
        w->Unref();
    }

  private:
    static void OnAsync(uv_async_t *handle)
    {
        auto *st = static_cast<State *>(handle->data);
        if (st->owner != nullptr) {
            st->owner->Deliver();
        }
    }

    // Tells V8 how the native bytes the walk may hold have changed since last told, so that
    // walks parked with full buffers weigh in its decision to collect.
    void Report()
    {
        const int64_t now = closed_ ? 0 : st_->held;
        if (now != st_->reported) {
            Napi::MemoryManagement::AdjustExternalMemory(Env(), now - st_->reported);
            st_->walks->reported += now - st_->reported;
            st_->reported = now;
        }
    }

    // Hands the fetched batch (or the end) to the next() waiting, if one waits and nothing
    // is being fetched; starts the next fetch.
    void Deliver()
    {
        if (pending_.IsEmpty() || st_->closing || st_->busy) {
            return;
        }
        Napi::Env env = Env();
        Napi::HandleScope scope(env);
        if (!st_->ready && !st_->ended) {
            StartFetch(st_.get()); // Deliver() again once it has completed
            return;
        }
        Napi::Function cb = pending_.Value();
        pending_.Reset();
        UpdateRef();
        if (st_->ready) {
            std::unique_ptr<Batch> b = std::move(st_->ready);
            napi_value args[2 + kBatchArgs];
            args[0] = env.Null();
            ToJs(env, st_->cfg, *b, args + 1);
            b->Clear();
            st_->spare = std::move(b);
            args[1 + kBatchArgs] = TakeErrors(env, st_.get());
            if (!st_->ended) {
                StartFetch(st_.get()); // the next batch is made while JavaScript takes this one
            }
            CallBack(env, cb, 2 + kBatchArgs, args, *ctx_);
            return;
        }
        Napi::Value err = WalkError(env, st_.get(), st_->result);
        napi_value end[2 + kBatchArgs];
        std::fill(end + 2, end + 1 + kBatchArgs, env.Undefined());
        end[0] = err.IsUndefined() ? env.Null() : err;
        end[1] = env.Null();
        end[1 + kBatchArgs] = TakeErrors(env, st_.get());
        CloseWhenIdle(st_.get());
        CallBack(env, cb, 2 + kBatchArgs, end, *ctx_);
    }

    // The walk's handle keeps the loop alive while JavaScript waits on the walk: a next()
    // for a batch or a cancel() for the threads to be joined.
    void UpdateRef()
    {
        auto *h = reinterpret_cast<uv_handle_t *>(&st_->async);
        if (!pending_.IsEmpty() || !cancelled_.empty()) {
            uv_ref(h);
        } else {
            uv_unref(h);
        }
    }

    // next(callback): callback(null, names, dirs, dirStart, types, nameEnd, num, ns, extras,
    // errors)
    // for a batch (see ToJs), callback(err or null, null, ..., errors) at the end; errors:
    // the errors kept (errors: 'collect') since the last callback, or undefined.
    Napi::Value Next(const Napi::CallbackInfo &info)
    {
        Napi::Env env = info.Env();
        if (st_->walks == nullptr || st_->walks->ending) {
            return env.Undefined(); // never started, or the environment ends: nothing to wait on
        }
        if (!info[0].IsFunction() || !pending_.IsEmpty() || st_->closing) {
            Napi::Error::New(env, "frd: next() needs a callback, one at a time, before the end")
                .ThrowAsJavaScriptException();
            return env.Undefined();
        }
        pending_ = Napi::Persistent(info[0].As<Napi::Function>());
        UpdateRef();
        uv_async_send(&st_->async); // deliver from the loop, never synchronously
        return env.Undefined();
    }

    // cancel([callback]): stops the walk; callback() runs once its threads are joined and
    // its descriptors closed (at once if they are).
    Napi::Value Cancel(const Napi::CallbackInfo &info)
    {
        if (st_->walks == nullptr) {
            return info.Env().Undefined(); // never started
        }
        if (info[0].IsFunction() && !st_->walks->ending) {
            if (closed_) {
                info[0].As<Napi::Function>().Call({});
                return info.Env().Undefined();
            }
            cancelled_.push_back(Napi::Persistent(info[0].As<Napi::Function>()));
            UpdateRef();
        }
        st_->cancelled = true;
        CloseWhenIdle(st_.get());
        return info.Env().Undefined();
    }

    std::unique_ptr<State> st_;
    std::unique_ptr<Napi::AsyncContext> ctx_;
    Napi::FunctionReference pending_;
    std::vector<Napi::FunctionReference> cancelled_; // cancel()'s callbacks, run by OnClosed
    bool closed_ = false;
};

void StartFetch(State *st)
{
    st->busy = true;
    uv_queue_work(
        st->loop, &st->work, [](uv_work_t *req) { Fill(static_cast<State *>(req->data), true); },
        &Walker::OnFetched);
}

// Closes the walk once no fetch runs (else the fetch's completion calls this again): the
// iterator on the pool (frd_walk_iter_close() joins the walk's threads), then the handle.
void CloseWhenIdle(State *st)
{
    if (st->busy || st->closing) {
        return;
    }
    st->closing = true;
    if (st->it == nullptr) {
        uv_close(reinterpret_cast<uv_handle_t *>(&st->async), &Walker::OnClosed);
        return;
    }
    st->busy = true;
    uv_queue_work(
        st->loop, &st->work,
        [](uv_work_t *req) {
            auto *s = static_cast<State *>(req->data);
            frd_walk_iter_close(s->it);
            s->it = nullptr;
        },
        [](uv_work_t *req, int) {
            auto *s = static_cast<State *>(req->data);
            s->busy = false;
            uv_close(reinterpret_cast<uv_handle_t *>(&s->async), &Walker::OnClosed);
        });
}

void Walks::OnEnd(napi_async_cleanup_hook_handle handle, void *arg)
{
    auto *walks = static_cast<Walks *>(arg);
    walks->hook = handle;
    walks->ending = true;
    std::vector<Walker *> live = walks->live; // End() may close one at once (Forget)
    for (Walker *w : live) {
        w->End();
    }
    if (walks->open == 0) {
        napi_remove_async_cleanup_hook(handle);
        walks->hook = nullptr;
    }
}

// runSync(options, onBatch): walks to the end, then calls onBatch(names, dirs, dirStart,
// types, nameEnd, num, ns, extras) for each batch (see ToJs), or throws the walk's error. Returns
// the errors kept (errors: 'collect': an array, or undefined when there are none). The
// iterator is pulled on this thread (frd_walk_iter_next() waits for the walk).
Napi::Value RunSync(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    State st;
    if (!info[0].IsObject() || !info[1].IsFunction()) {
        Napi::TypeError::New(env, "runSync(options, onBatch)").ThrowAsJavaScriptException();
        return env.Undefined();
    }
    if (!ParseConfig(env, info[0].As<Napi::Object>(), &st.cfg)) {
        return env.Undefined();
    }
    Napi::Function onBatch = info[1].As<Napi::Function>();
    std::vector<std::unique_ptr<Batch>> batches;
    const char *roots[1] = {st.cfg.root.c_str()};
    int rc = frd_walk_iter_open(&st.it, roots, 1, &st.cfg.opts, &st);
    if (rc < 0) {
        st.result = rc;
    } else {
        while (!st.ended) {
            Fill(&st, false);
            if (st.ready) {
                batches.push_back(std::move(st.ready));
            }
        }
        frd_walk_iter_close(st.it);
        st.it = nullptr;
    }
    Napi::Value err = WalkError(env, &st, st.result);
    if (!err.IsUndefined()) {
        Napi::Error(env, err).ThrowAsJavaScriptException();
        return env.Undefined();
    }
    for (auto &b : batches) {
        Napi::HandleScope scope(env);
        napi_value args[kBatchArgs];
        ToJs(env, st.cfg, *b, args);
        b.reset(); // its block belongs to JavaScript now; the strings are copied
        onBatch.Call(env.Undefined(), kBatchArgs, args);
        if (env.IsExceptionPending()) {
            return env.Undefined();
        }
    }
    return TakeErrors(env, &st);
}

Napi::Object InitModule(Napi::Env env, Napi::Object exports)
{
    exports.Set("Walker", Walker::Init(env));
    exports.Set("runSync", Napi::Function::New(env, RunSync));
    exports.Set("statsFields", Napi::Number::New(env, kNumFields));
    // The native bytes this environment's walks have reported to V8 and not yet taken back
    // (what V8 counts as external memory for them; process.memoryUsage() does not show it).
    exports.Set("reportedBytes", Napi::Function::New(env, [](const Napi::CallbackInfo &info) {
                    return Napi::Number::New(info.Env(),
                                             static_cast<double>(Walks::Of(info.Env()).reported));
                }));
    return exports;
}

} // namespace

NODE_API_MODULE(frd, InitModule)
