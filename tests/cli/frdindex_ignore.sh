#!/usr/bin/env bash
# frdindex update --gitignore, --exclude-caches and --exclude-if-present=NAME: the index
# holds exactly what frdfind's walk with the same ignore rules yields (the library's
# frd_ignore(3), applied before any stat); the rules are kept in the database, so a later
# update without options leaves out the same, and given exclude options replace them.
# Usage: tests/cli/frdindex_ignore.sh PATH/TO/frdindex PATH/TO/frdfind
set -euo pipefail
frdindex=$(realpath "$1")
frdfind=$(realpath "$2")
. "$(dirname "$0")/lib.sh"
cli_begin
export XDG_CONFIG_HOME=$tmp/xdg HOME=$tmp/home # no global excludes file of the machine's
mkdir -p "$XDG_CONFIG_HOME" "$HOME"

R=$tmp/r
mkdir -p "$R" && git -C "$R" init -q
mkdir -p "$R"/src/gen "$R"/build "$R"/logs "$R"/cache "$R"/nob "$R"/docs/tmp
for f in keep.c drop.o src/a.c src/a.o src/keep.o src/gen/x.c build/out logs/app.log \
  cache/data nob/z docs/notes.md docs/tmp/scratch 'odd name.o' '#hash' '!bang'; do
  printf 'x' >"$R/$f"
done
printf '*.o\n/build/\nlogs\n\\#hash\n' >"$R/.gitignore"
printf '!keep.o\ngen/\n' >"$R/src/.gitignore"
printf 'tmp\n' >"$R/docs/.gitignore"
printf 'Signature: 8a477f597d28d172789f06886806bc55\n' >"$R/cache/CACHEDIR.TAG"
: >"$R/nob/.nobackup"

# indexed DB: every path the index holds, sorted (the .git folder left out of both sides).
indexed() { "$frdindex" find "$1" '*' | grep -v '/\.git\(/\|$\)' | LC_ALL=C sort; }
walked() { "$frdfind" "$R" "$@" | grep -v '/\.git\(/\|$\)' | LC_ALL=C sort; }
same() { # WHAT WANT GOT
  if [ "$2" = "$3" ]; then
    ok "$1 ($(printf '%s\n' "$2" | wc -l) paths)"
  else
    bad "$1"
    diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | head -10 | sed 's/^/     /'
  fi
}

opts=(--gitignore --exclude-caches --exclude-if-present=.nobackup)
"$frdindex" update -q -m 600 "${opts[@]}" i.db "$R"
want=$(walked -gitignore -exclude-caches -exclude-if-present .nobackup)
same "update ${opts[*]}: as frdfind's walk with the same rules" "$want" "$(indexed i.db)"
all=$(walked)
if [ "$(printf '%s\n' "$want" | wc -l)" -lt "$(printf '%s\n' "$all" | wc -l)" ] &&
  ! grep -q -e 'drop\.o' -e '/build' -e 'cache/data' -e 'nob/z' -e 'scratch' <<<"$want" &&
  grep -q 'src/keep\.o' <<<"$want"; then
  ok "the rules leave out what git, CACHEDIR.TAG and .nobackup say, keep !keep.o"
else
  bad "the rules did not leave out what they should: $want"
fi

# Kept for later updates: new entries the rules cover stay out.
printf 'x' >"$R/new.o" && printf 'x' >"$R/new.c" && mkdir "$R/build2" && : >"$R/nob/late"
"$frdindex" update -q i.db
same "a later update without options keeps the rules" \
  "$(walked -gitignore -exclude-caches -exclude-if-present .nobackup)" "$(indexed i.db)"

# Given exclude options replace them all.
"$frdindex" update -q --exclude=zzz i.db
same "--exclude replaces the stored ignore rules" "$(walked -name zzz -prune -o -print)" \
  "$(indexed i.db)"

# git's rules alone, and a bad --exclude-if-present.
"$frdindex" update -q --gitignore g.db "$R"
same "update --gitignore: as frdfind -gitignore" "$(walked -gitignore)" "$(indexed g.db)"
rc=0
"$frdindex" update -q --exclude-if-present=a/b x.db "$R" 2>err.txt || rc=$?
if [ $rc -eq 2 ] && grep -q "exclude-if-present takes a file name" err.txt && [ ! -e x.db ]; then
  ok "--exclude-if-present=a/b: usage error, exit 2, no database"
else
  bad "--exclude-if-present=a/b: exit $rc, $(cat err.txt)"
fi
cli_end
