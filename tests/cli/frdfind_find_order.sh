#!/usr/bin/env bash
# frdfind -find-order is GNU find byte for byte, order included: each case runs `find ARGS`
# and frdfind (by a copy named `find`, so its messages say `find:`) with -find-order on the
# same generated tree, as root and as uid 65534, and compares stdout, stderr and the exit
# status exactly. The tree has names find quotes, private directories, links of both kinds,
# a directory of 10,001 entries and one of 100,123 (find's fts sorts more than 10,000 by inode,
# each batch of 100,000 alone), and one of 10,002 on tmpfs (where fts does not sort); the
# commands of -execdir ... + run where find runs them.
# Usage: tests/cli/frdfind_find_order.sh PATH/TO/frdfind
set -euo pipefail
frdfind=$(realpath "$1")
export LC_ALL=C
# shellcheck source=lib.sh disable=SC2154
. "$(dirname "$0")/lib.sh"
cli_begin
chmod 755 "$tmp"
shm=$(mktemp -d /dev/shm/frdfind-order.XXXXXX 2>/dev/null) || shm=$tmp/shm
mkdir -p "$shm" && chmod 755 "$shm"
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp" "$shm"' EXIT
mkdir bin && cp "$frdfind" bin/find && chmod 755 bin/find

# --- the tree ---------------------------------------------------------------------------
mkdir -p t/a/b/c t/empty "t/odd names" t/links/sub t/x.d/sub t/big10k
printf 'x' >t/a/one && head -c 5000 /dev/urandom >t/a/b/five-k
printf 'o' >t/a/b/c/obj.o && printf 'o' >t/a/main.o && printf 'o' >t/x.d/sub/keep.o
head -c 100000 /dev/urandom >t/links/big
ln t/links/big t/links/big-again && ln t/links/big t/links/sub/far
ln -s big t/links/to-file && ln -s ../a t/links/to-dir && ln -s /nonexistent t/links/dangling
mkfifo t/a/fifo
for n in "$(printf 'new\nline')" "it's" "$(printf 'bad\377byte')" 'ümlaut' 'sp ace'; do
  printf 'y' >"t/odd names/$n"
done
mkdir -p t/private/locked/in t/private/noexec
printf 'p' >t/private/locked/in/f && printf 'q' >t/private/noexec/f1
chmod 700 t/private/locked && chmod 744 t/private/noexec
(cd t/big10k && seq -f 'n%g' 1 10001 | xargs touch)
mkdir big100k && (cd big100k && seq -f 'entry-%g' 1 100123 | xargs touch)
mkdir "$shm/big" && (cd "$shm/big" && seq -f 'n%g' 1 10002 | xargs touch)
mkdir -p loop/d/e && : >loop/a && : >loop/d/e/f && ln -s .. loop/d/e/up # a loop under -L

cli_users

# exact ARGS...: find ARGS and frdfind -find-order ARGS agree byte for byte, as every user.
exact() { same_bytes_as_users find "$tmp/bin/find" -find-order "$@"; }

exact t
exact t -depth
exact t -printf '%p %y %s %n %i\n'
exact t -name '*.o' -prune -o -print
exact t -type d -name b -prune -o -type f -print0
exact -L t
exact -H t/links/to-dir t/links
exact t -maxdepth 2
exact t -mindepth 2 -type f
# (A command per entry: not in the directory of 10,001, which would take 10,001 of each.)
exact t -name big10k -prune -o -exec echo {} \;
exact t -exec echo {} +
exact t -name big10k -prune -o -execdir echo {} \;
exact t/private/noexec -execdir echo {} +
# -execdir ... +: find runs its batches each time it goes a level down or up, a root's
# included (in the directory above it), and at the end; its lines come between.
exact t -execdir echo {} +
exact t -execdir echo {} + -print
# shellcheck disable=SC2016 # the command's own $PWD and $@
exact t -print -execdir sh -c 'echo "$PWD" "$@"' sh {} +
exact t -depth -execdir echo {} + -print
exact t -mindepth 2 -execdir echo {} + -print
exact t -maxdepth 2 -name b -prune -o -execdir echo {} + -execdir sh -c 'echo "$#"' sh {} +
exact t/a/one t missing t/empty t/a/b -execdir echo {} + -print
exact t/a/b/c/obj.o t/a/one -execdir echo {} +
printf 't/a/b\0t/a/one\0t/empty\0t/x.d\0' >roots0
exact -files0-from roots0 -execdir echo {} + -print
exact -L t/links t/a -execdir echo {} +
exact -L loop -execdir echo {} + -print
exact -L loop -depth -execdir echo {} + -print
exact t/big10k -execdir sh -c 'echo "$#"' sh {} +
exact t -path '*/private/*' -quit -o -print
exact t -newer t/a/one
exact t -empty
exact t t/a missing t/links
exact t/big10k -name 'n1*'
exact big100k
exact "$shm/big"
# -s where find's order is by name too (tmpfs lists the newest entry first: a tree made in
# reverse name order lists by name): -s is then find byte for byte, -execdir ... + included.
made() { for n; do case $n in */) mkdir "$shm/$n" ;; *) : >"$shm/$n" ;; esac; done; }
made s/ s/f s/e s/d/ s/c s/b/ s/a s/d/z s/d/x s/d/m/ s/d/c s/d/a s/d/m/q s/d/m/p s/b/k
by_name=true
for d in "$shm/s" "$shm/s/d" "$shm/s/d/m"; do
  [ "$(ls -U "$d")" = "$(ls "$d")" ] || by_name=false
done
if $by_name; then
  same_bytes_as_users find "$tmp/bin/find" -s "$shm/s" -execdir echo {} + -print
  same_bytes_as_users find "$tmp/bin/find" -s "$shm/s" -depth -execdir echo {} + -print
  same_bytes_as_users find "$tmp/bin/find" -s "$shm/s/d" "$shm/s/a" -execdir echo {} +
else
  echo "note: $shm/s lists its entries in no name order: -s against find is not checked"
fi

# -delete on two copies: the same output and the same tree left.
for user in "${users[@]}"; do
  rm -rf d1 d2 && cp -a t/a d1 && cp -a t/a d2 && chmod 777 d1 d2
  [ "$user" = nobody ] && chown -R 65534 d1 d2
  run_as "$user" ref find d1 -name '*.o' -delete -o -print
  ref_rc=$rc
  run_as "$user" frd "$tmp/bin/find" -find-order d2 -name '*.o' -delete -o -print
  sed 's/^d2/d1/' frd.out >frd.mapped
  if cmp -s ref.out frd.mapped && cmp -s ref.err frd.err && [ "$rc" = "$ref_rc" ] &&
    [ "$(cd d1 && find . | sort)" = "$(cd d2 && find . | sort)" ]; then
    ok "find DIR -name '*.o' -delete -o -print (as $user): the same lines and tree left"
  else
    bad "find DIR -name '*.o' -delete -o -print (as $user): differs"
  fi
done

# -s is by name, -find-order find's: the last of the two given wins.
"$frdfind" -s t >s.out && "$frdfind" -find-order -s t >s2.out
"$frdfind" -s -find-order t >o.out && find t >f.out
if cmp -s s.out s2.out && cmp -s o.out f.out && ! cmp -s s.out f.out; then
  ok "-s -find-order is find's order, -find-order -s frdfind -s's"
else
  bad "-s and -find-order together: the last one given does not win"
fi

cli_end
