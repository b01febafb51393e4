// addon.cc: the native half of frd's Node.js binding (lib/index.js is the other half).
//
// A Walker runs one frd walk on frd's own threads. Each worker fills its own batch (names
// joined by NUL, their parent directories, types and, when asked, metadata in typed arrays);
// a full batch goes to a bounded queue, and a worker that finds the queue full waits until
// JavaScript has taken a batch (backpressure: the walk pauses while JavaScript lags). The
// loop thread hands one batch per uv_async wake-up to the callback waiting in next(), so
// timers run between batches. runSync() walks on the calling thread's behalf and returns
// every batch at once (for readdirSync). JavaScript turns batches into Dirent-like objects.
//
// A batch's numbers (types, directory starts, name ends, metadata) sit in one malloc'd block
// that a worker fills in place and that JavaScript then owns as an external ArrayBuffer (its
// typed arrays are views into it; its finalizer gives it back, see below): the loop thread
// copies and zeroes nothing but the two strings. The batch is handed to JavaScript as the callback's arguments
// (no array to fill and take apart); a batch whose names are all ASCII comes with each name's
// end offset, so JavaScript slices the names out without searching, and its strings are made
// as Latin-1 (a copy, no UTF-8 decoding).
//
// Memory is recycled while walks run: the ArrayBuffer's finalizer gives a full batch's block
// back to a pool that workers take from, and a handed-over batch's strings wait in its walk
// for the next batch. Freed instead, the blocks went back to the worker threads' malloc
// arenas from the loop thread, which trimmed them (madvise, a TLB flush on every CPU) and
// the next batch faulted the pages in again.
//
// Walks dropped unfinished: a walk parks once its queue is full (at most queueLimit batches
// and one being filled per worker), and the bytes its batches hold are reported to V8
// (AdjustExternalMemory) as they change. Its iterator's FinalizationRegistry (lib/index.js)
// cancels it when collected, and Walks below makes V8 collect when many walks are open, so
// parked walks stay bounded without the program asking for a collection. Neither a parked
// walk nor the library's handle for its end keeps the process alive; as the environment
// ends (exit, a worker terminated) the open walks are cancelled and closed before Node goes
// on (Walks::OnEnd). cancel(callback) calls back once the walk's threads are joined and its
// descriptors closed.
#include "frd.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
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
constexpr uint32_t kMaxBatch = 65536; // entries per batch
constexpr uint32_t kMaxQueue = 64;    // batches queued ahead of the consumer
constexpr size_t kNumFields = 13;     // doubles per entry with stats (see lib/index.js)
constexpr size_t kNsFields = 4;       // int64 ns times per entry with stats

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

// The native bytes a walk holds (its batches' blocks and strings), kept by whichever thread
// allocates or frees them; the loop thread reports the change to V8 (Walker::Report).
using Bytes = std::atomic<int64_t>;

struct Batch {
    std::string names;              // each name (or relative path) followed by a NUL
    std::string dirs;               // each parent directory (relative) followed by a NUL
    unsigned char *block = nullptr; // Layout; owned here until ToJs hands it to an ArrayBuffer
    size_t blockSize = 0;           // its bytes
    size_t dirCount = 0;            // directory groups: dirStart[0..dirCount)
    std::string lastDir;            // the directory of the current group
    size_t count = 0;
    unsigned char high = 0; // the bytes of the names OR'ed: bit 7 set unless all are ASCII
    Bytes *held;            // the walk's count of native bytes, which includes this batch's
    int64_t strBytes = 0;   // the strings' capacity as last counted in *held
    explicit Batch(Bytes *h) : held(h)
    {
    }
    ~Batch()
    {
        if (block != nullptr) {
            Pool().Give(block, blockSize);
            *held -= static_cast<int64_t>(blockSize);
        }
        *held -= strBytes;
    }
    // Counts the strings' capacity (grown by long names) in *held.
    void Recount()
    {
        const auto now =
            static_cast<int64_t>(names.capacity() + dirs.capacity() + lastDir.capacity());
        *held += now - strBytes;
        strBytes = now;
    }
    // Empties the batch for reuse, keeping the strings' memory (its block is gone).
    void Clear()
    {
        names.clear();
        dirs.clear();
        lastDir.clear();
        dirCount = 0;
        count = 0;
        high = 0;
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
    unsigned typeMask = 0xff;
    std::vector<std::string> nameGlobs; // matched against the entry's name
    std::vector<std::string> pathGlobs; // with a '/': matched against the relative path
    size_t batchSize = 2048;
    size_t queueLimit = 8;
    // gitignore: git's rules (opts.ignore), freed with the walk's state.
    std::unique_ptr<struct frd_ignore, void (*)(struct frd_ignore *)> ignore{nullptr,
                                                                             frd_ignore_free};
    struct frd_walk_options opts;
    Layout layout{0, false}; // of every batch (set once batchSize and stats are known)
};

class Walker;

// An error below the root kept by errors: 'collect' (made a JavaScript error on the loop).
struct ErrorRecord {
    int code;
    const char *syscall;
    std::string path;
};

// What the walk's threads share with the loop thread.
struct State {
    Bytes held{0}; // native bytes of the walk's batches (Batch::held): first, so destroyed last
    Config cfg;
    bool sync = false;
    std::unique_ptr<Batch> cur[kMaxWorkers];
    std::string globBuf[kMaxWorkers];
    std::mutex mu;
    std::condition_variable space;
    std::deque<std::unique_ptr<Batch>> queue;
    std::vector<std::unique_ptr<Batch>> spare; // handed over: their strings' memory reused
    bool cancelled = false;
    bool hasError = false;
    int errCode = 0;
    std::string errSyscall;
    std::string errPath;
    std::vector<ErrorRecord> collected; // errors: 'collect': not yet handed over
    uv_async_t async;
    Walker *owner = nullptr;
    int64_t reported = 0;          // the part of `held` reported to V8 (loop thread only)
    struct Walks *walks = nullptr; // of the walk's environment (async walks)
};

const char *SyscallOf(const struct frd_walk_error *err)
{
    if (err->depth == 0) {
        return "scandir";
    }
    switch (err->call) {
    case FRD_OP_OPEN:
    case FRD_OP_READ_DIR:
    case FRD_OP_LOOP:
        return "scandir";
    case FRD_OP_STAT:
        return "lstat";
    case FRD_OP_READLINK:
        return "readlink";
    default:
        return frd_op_name(err->call);
    }
}

void RecordError(State *st, int code, const char *syscall, const std::string &path)
{
    std::lock_guard<std::mutex> lock(st->mu);
    if (!st->hasError) {
        st->hasError = true;
        st->errCode = code;
        st->errSyscall = syscall;
        st->errPath = path;
    }
}

enum frd_action OnError(const struct frd_walk_error *err, void *udata)
{
    auto *st = static_cast<State *>(udata);
    if (err->depth > 0 && st->cfg.ignoreErrors) {
        return FRD_ACTION_CONTINUE;
    }
    std::string path = err->depth == 0 ? st->cfg.root : std::string(err->path);
    if (err->depth > 0 && st->cfg.collectErrors) {
        std::lock_guard<std::mutex> lock(st->mu);
        st->collected.push_back({err->code, SyscallOf(err), std::move(path)});
        return FRD_ACTION_CONTINUE;
    }
    RecordError(st, err->code, SyscallOf(err), path);
    return FRD_ACTION_STOP;
}

// Queues a full batch; waits while the queue is full (async walks only).
// Returns false when the walk was cancelled.
bool Flush(State *st, std::unique_ptr<Batch> &b)
{
    b->Recount();
    {
        std::unique_lock<std::mutex> lock(st->mu);
        while (!st->sync && st->queue.size() >= st->cfg.queueLimit && !st->cancelled) {
            st->space.wait(lock);
        }
        if (st->cancelled) {
            b.reset();
            return false;
        }
        st->queue.push_back(std::move(b));
    }
    if (!st->sync) {
        uv_async_send(&st->async);
    }
    return true;
}

double Ms(int64_t ns)
{
    return static_cast<double>(ns) / 1e6;
}

// A batch with room for a full batch's entries, so appends do not reallocate (and copy):
// a spare one of this walk with a pooled block if there are. nullptr out of memory.
std::unique_ptr<Batch> NewBatch(State *st)
{
    std::unique_ptr<Batch> b;
    {
        std::lock_guard<std::mutex> lock(st->mu);
        if (!st->spare.empty()) {
            b = std::move(st->spare.back());
            st->spare.pop_back();
        }
    }
    if (!b) {
        b = std::make_unique<Batch>(&st->held);
        b->names.reserve(st->cfg.batchSize * (st->cfg.relNames ? 48 : 16));
        b->Recount();
    }
    b->block = Pool().Take(st->cfg.layout.size);
    if (b->block == nullptr) {
        return nullptr;
    }
    b->blockSize = st->cfg.layout.size;
    st->held += static_cast<int64_t>(b->blockSize);
    return b;
}

// Keeps a handed-over batch's strings for a later batch of the walk (a few at most).
void Recycle(State *st, std::unique_ptr<Batch> b)
{
    b->Clear();
    std::lock_guard<std::mutex> lock(st->mu);
    if (st->spare.size() < kMaxWorkers) {
        st->spare.push_back(std::move(b));
    }
}

enum frd_action Visit(const struct frd_walk_entry *we, void *udata)
{
    auto *st = static_cast<State *>(udata);
    const struct frd_entry *e = we->entry;
    if (we->is_root) {
        if (e->type != FRD_TYPE_DIR) {
            RecordError(st, FRD_ENOTDIR, "scandir", st->cfg.root);
            return FRD_ACTION_STOP;
        }
        return FRD_ACTION_CONTINUE;
    }
    if (!(st->cfg.typeMask & (1u << e->type))) {
        return FRD_ACTION_CONTINUE;
    }
    std::unique_ptr<Batch> &b = st->cur[we->worker % kMaxWorkers];
    if (!b) {
        b = NewBatch(st);
        if (!b) {
            RecordError(st, FRD_ENOMEM, "scandir", st->cfg.root);
            return FRD_ACTION_STOP;
        }
    }
    const Layout &lay = st->cfg.layout;
    const char *rel = we->path + st->cfg.relOff;
    size_t relLen = we->path_len - st->cfg.relOff;
    size_t nameLen = e->name_len <= relLen ? e->name_len : relLen;
    size_t dirLen = relLen - nameLen;
    if (dirLen > 0) {
        dirLen--; // the '/' before the name
    }
    if (b->dirCount == 0 || b->lastDir.size() != dirLen ||
        memcmp(b->lastDir.data(), rel, dirLen) != 0) {
        b->lastDir.assign(rel, dirLen);
        b->dirs.append(rel, dirLen);
        b->dirs.push_back('\0');
        const uint32_t start = static_cast<uint32_t>(b->count);
        memcpy(b->block + lay.dirStart + b->dirCount++ * sizeof(uint32_t), &start, sizeof(start));
    }
    const char *name = st->cfg.relNames ? rel : rel + relLen - nameLen;
    const size_t len = st->cfg.relNames ? relLen : nameLen;
    unsigned char high = 0;
    for (size_t i = 0; i < len; i++) {
        high |= static_cast<unsigned char>(name[i]);
    }
    b->high |= high;
    b->names.append(name, len);
    const uint32_t end = static_cast<uint32_t>(b->names.size());
    memcpy(b->block + lay.nameEnd + b->count * sizeof(uint32_t), &end, sizeof(end));
    b->names.push_back('\0');
    b->block[lay.types + b->count] = static_cast<uint8_t>(e->type);
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
    if (++b->count >= st->cfg.batchSize && !Flush(st, b)) {
        return FRD_ACTION_STOP;
    }
    return FRD_ACTION_CONTINUE;
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

// Flushes the workers' partial batches once no callback runs any more.
void FlushAll(State *st)
{
    std::lock_guard<std::mutex> lock(st->mu);
    for (auto &b : st->cur) {
        if (b) {
            b->Recount();
        }
        if (b && b->count > 0 && !st->cancelled) {
            st->queue.push_back(std::move(b));
        }
        b.reset();
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
    double typeMask = 0, batchSize = 0, queueLimit = 0, maxDepth = 0, workers = 0;
    if (!IntOption(env, o, "typeMask", 0, 0xff, &typeMask) ||
        !IntOption(env, o, "batchSize", 1, kMaxBatch, &batchSize) ||
        !IntOption(env, o, "queueLimit", 1, kMaxQueue, &queueLimit) ||
        !IntOption(env, o, "maxDepth", -1, INT32_MAX, &maxDepth) ||
        !IntOption(env, o, "workers", 0, kMaxWorkers, &workers)) {
        return false;
    }
    cfg->typeMask = static_cast<unsigned>(typeMask);
    cfg->batchSize = static_cast<size_t>(batchSize);
    cfg->queueLimit = static_cast<size_t>(queueLimit);
    cfg->layout = Layout(cfg->batchSize, cfg->stats);
    // Entries are handed out by path: no callback reaches one through its directory.
    unsigned flags = FRD_WALK_NO_PARENT_FD | (cfg->stats ? 0 : FRD_WALK_NAMES_ONLY);
    if (o.Get("sort").ToBoolean()) {
        flags |= FRD_WALK_ORDERED;
    }
    if (!o.Get("hidden").ToBoolean()) {
        flags |= FRD_WALK_SKIP_HIDDEN;
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

constexpr size_t kBatchArgs = 7; // names, dirs, dirStart, types, nameEnd, num, ns

// The errors kept (errors: 'collect') since the last call, as an array of JavaScript errors,
// or undefined when there are none.
Napi::Value TakeErrors(Napi::Env env, State *st)
{
    std::vector<ErrorRecord> errs;
    {
        std::lock_guard<std::mutex> lock(st->mu);
        errs.swap(st->collected);
    }
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

// Whether every byte of `s` is ASCII.
bool IsAscii(const std::string &s)
{
    unsigned char high = 0;
    for (char c : s) {
        high |= static_cast<unsigned char>(c);
    }
    return (high & 0x80) == 0;
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
// with bigint), ns (undefined without stats). The typed arrays are views of the batch's
// block, which the ArrayBuffer owns from here on (freed by its finalizer).
void ToJs(Napi::Env env, const Config &cfg, Batch &b, napi_value out[kBatchArgs])
{
    const bool ascii = (b.high & 0x80) == 0;
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
        *b.held -= static_cast<int64_t>(b.blockSize);
        std::fill(out + 2, out + kBatchArgs, undef);
        return;
    }
    Napi::ArrayBuffer ab(env, abv);
    b.block = nullptr;
    *b.held -= static_cast<int64_t>(b.blockSize); // V8 counts the ArrayBuffer's bytes itself
    out[2] = Napi::Uint32Array::New(env, b.dirCount, ab, lay.dirStart);
    out[3] = Napi::Uint8Array::New(env, b.count, ab, lay.types);
    out[4] = ascii ? Napi::Uint32Array::New(env, b.count, ab, lay.nameEnd) : undef;
    out[5] = undef;
    out[6] = undef;
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
        uv_loop_t *loop = nullptr;
        napi_get_uv_event_loop(env, &loop);
        uv_async_init(loop, &st_->async, &Walker::OnAsync);
        st_->async.data = st_.get();
        uv_unref(reinterpret_cast<uv_handle_t *>(&st_->async));
        ctx_ = std::make_unique<Napi::AsyncContext>(env, "frd.walk");
        Pool().WalkStarted(); // until OnClosed
        st_->walks = &Walks::Of(env);
        st_->walks->Started(env, this); // until OnClosed
        const char *roots[1] = {st_->cfg.root.c_str()};
        int rc = frd_walk_start_async(&walk_, reinterpret_cast<struct uv_loop_s *>(loop), roots, 1,
                                      &st_->cfg.opts, Visit, st_.get(), &Walker::OnDone);
        if (rc < 0) {
            done_ = true;
            result_ = rc;
        } else {
            // The walk keeps the loop active until it ends, and an active handle keeps Node's
            // loop (and the process) alive: a walk dropped unfinished, parked for want of a
            // consumer, would hold the process forever at its end. So it does not count;
            // this walk's own handle (st_->async) does while a next() or a cancel() waits on
            // the walk (UpdateRef).
            frd_walk_unref(walk_);
        }
        Ref(); // alive until the handle is closed
    }

    // The Walker is finalized with its walk still open (as the environment ends: else it is
    // kept alive until closed): the walk is stopped, and its state left to the callbacks
    // still to come (OnDone, OnClosed), which then close it and free the state.
    ~Walker() override
    {
        if (closed_ || st_->owner == nullptr) { // closed, or never started (bad options)
            return;
        }
        st_->walks->Forget(this);
        Stop();
        pending_.SuppressDestruct();
        for (auto &cb : cancelled_) {
            cb.SuppressDestruct();
        }
        State *st = st_.release();
        st->owner = nullptr;
        uv_ref(reinterpret_cast<uv_handle_t *>(&st->async)); // (as in End())
        if (done_ && !closing_) { // OnDone has run: nothing else would close it
            uv_close(reinterpret_cast<uv_handle_t *>(&st->async), &Walker::OnClosed);
        }
    }

    // Stops the walk: its workers stop waiting for room and no callback starts any more.
    void Stop()
    {
        {
            std::lock_guard<std::mutex> lock(st_->mu);
            st_->cancelled = true;
            st_->queue.clear();
            st_->space.notify_all();
        }
        if (walk_ != nullptr && !done_) {
            frd_walk_cancel(walk_);
        }
    }

    // As the environment ends: stops the walk and closes it once it has ended.
    void End()
    {
        pending_.Reset(); // no JavaScript runs any more to take the batch
        // Referenced, the handle keeps the loop polling (Node runs it once at a time while
        // the teardown waits) until the walk's end has been handled.
        uv_ref(reinterpret_cast<uv_handle_t *>(&st_->async));
        Stop();
        CloseIfAbandoned();
    }

  private:
    static void OnAsync(uv_async_t *handle)
    {
        auto *st = static_cast<State *>(handle->data);
        if (st->owner == nullptr) {
            return; // (~Walker)
        }
        st->owner->Report();
        st->owner->Deliver();
    }

    // Tells V8 how the native bytes the walk holds have changed since last told, so that
    // walks parked with full queues weigh in its decision to collect.
    void Report()
    {
        const int64_t now = closed_ ? 0 : st_->held.load();
        if (now != st_->reported) {
            Napi::MemoryManagement::AdjustExternalMemory(Env(), now - st_->reported);
            st_->walks->reported += now - st_->reported;
            st_->reported = now;
        }
    }

    static void OnDone(int result, void *udata)
    {
        auto *st = static_cast<State *>(udata);
        Walker *w = st->owner;
        if (w == nullptr) { // (~Walker)
            uv_close(reinterpret_cast<uv_handle_t *>(&st->async), &Walker::OnClosed);
            return;
        }
        FlushAll(st);
        w->done_ = true;
        w->walk_ = nullptr;
        w->result_ = result;
        w->Report();
        w->Deliver();
        w->CloseIfAbandoned();
    }

    // The walk's threads were joined (before OnDone) and its descriptors closed (the
    // library closes its handle after OnDone's, and libuv runs the close callbacks last
    // closed first): cancel()'s callbacks run now.
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
        {
            std::lock_guard<std::mutex> lock(st->mu);
            st->queue.clear();
            st->spare.clear();
        }
        w->Report(); // all of it given back
        st->walks->Closed();
        Napi::Env env = w->Env();
        Napi::HandleScope scope(env);
        std::vector<Napi::FunctionReference> cbs;
        cbs.swap(w->cancelled_);
        if (st->walks->ending) {
            cbs.clear(); // no JavaScript runs any more (Walks::OnEnd)
        }
        for (auto &cb : cbs) {
            CallBack(env, cb.Value(), 0, nullptr, *w->ctx_);
        }
        w->Unref();
    }

    void Deliver()
    {
        if (pending_.IsEmpty() || closing_) {
            return;
        }
        Napi::Env env = Env();
        Napi::HandleScope scope(env);
        std::unique_ptr<Batch> b;
        {
            std::lock_guard<std::mutex> lock(st_->mu);
            if (!st_->queue.empty()) {
                b = std::move(st_->queue.front());
                st_->queue.pop_front();
                st_->space.notify_one();
            }
        }
        Napi::Function cb = pending_.Value();
        pending_.Reset();
        UpdateRef();
        if (b) {
            napi_value args[2 + kBatchArgs];
            args[0] = env.Null();
            ToJs(env, st_->cfg, *b, args + 1);
            Recycle(st_.get(), std::move(b));
            args[1 + kBatchArgs] = TakeErrors(env, st_.get());
            CallBack(env, cb, 2 + kBatchArgs, args, *ctx_);
            return;
        }
        if (!done_) { // woken with nothing to hand: wait for the next batch
            pending_ = Napi::Persistent(cb);
            UpdateRef();
            return;
        }
        Napi::Value err = WalkError(env, st_.get(), result_);
        napi_value end[2 + kBatchArgs];
        std::fill(end + 2, end + 1 + kBatchArgs, env.Undefined());
        end[0] = err.IsUndefined() ? env.Null() : err;
        end[1] = env.Null();
        end[1 + kBatchArgs] = TakeErrors(env, st_.get());
        Close();
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

    // A cancelled walk that nobody waits on any more closes its handle itself.
    void CloseIfAbandoned()
    {
        if (st_->cancelled && done_ && pending_.IsEmpty()) {
            Close();
        }
    }

    void Close()
    {
        if (!closing_) {
            closing_ = true;
            uv_close(reinterpret_cast<uv_handle_t *>(&st_->async), &Walker::OnClosed);
        }
    }

    // next(callback): callback(null, names, dirs, dirStart, types, nameEnd, num, ns, errors)
    // for a batch (see ToJs), callback(err or null, null, ..., errors) at the end; errors:
    // the errors kept (errors: 'collect') since the last callback, or undefined.
    Napi::Value Next(const Napi::CallbackInfo &info)
    {
        Napi::Env env = info.Env();
        if (st_->walks == nullptr || st_->walks->ending) {
            return env.Undefined(); // never started, or the environment ends: nothing to wait on
        }
        if (!info[0].IsFunction() || !pending_.IsEmpty() || closing_) {
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
        Stop();
        CloseIfAbandoned();
        return info.Env().Undefined();
    }

    std::unique_ptr<State> st_;
    std::unique_ptr<Napi::AsyncContext> ctx_;
    Napi::FunctionReference pending_;
    std::vector<Napi::FunctionReference> cancelled_; // cancel()'s callbacks, run by OnClosed
    struct frd_walk *walk_ = nullptr;
    bool done_ = false;
    bool closing_ = false;
    bool closed_ = false;
    int result_ = 0;
};

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
// types, nameEnd, num, ns) for each batch (see ToJs), or throws the walk's error. Returns
// the errors kept (errors: 'collect': an array, or undefined when there are none).
Napi::Value RunSync(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    State st;
    st.sync = true;
    if (!info[0].IsObject() || !info[1].IsFunction()) {
        Napi::TypeError::New(env, "runSync(options, onBatch)").ThrowAsJavaScriptException();
        return env.Undefined();
    }
    if (!ParseConfig(env, info[0].As<Napi::Object>(), &st.cfg)) {
        return env.Undefined();
    }
    Napi::Function onBatch = info[1].As<Napi::Function>();
    int rc = frd_walk(st.cfg.root.c_str(), &st.cfg.opts, Visit, &st);
    FlushAll(&st);
    Napi::Value err = WalkError(env, &st, rc);
    if (!err.IsUndefined()) {
        Napi::Error(env, err).ThrowAsJavaScriptException();
        return env.Undefined();
    }
    for (auto &b : st.queue) {
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
