#!/usr/bin/env bash
# frdfind -newermt reads dates as GNU find does (gnulib's parse_datetime, which date(1)
# shares): for each date below, in three time zones, files modified one second before, at
# and one second after the instant `date -d` gives are tested with `-newermt DATE` by both
# tools; the output, the messages and the exit status must be find's, byte for byte. Dates
# find refuses get its message. frdfind used to take only ISO 8601 and @SECONDS (not
# @-99999999999, a zone offset after a time, "yesterday"...).
# Usage: tests/cli/frdfind_dates.sh PATH/TO/frdfind
set -euo pipefail
frdfind=$(realpath "$1")
export LC_ALL=C
. "$(dirname "$0")/lib.sh"
cli_begin

dates=(
  # from the issue, and ISO 8601
  '@-99999999999' '19911213 20:31:00-0330' '2024-03-05' '2024-03-05 10:30' '2024-3-5 7:05:09'
  '2024-03-05T10:30:00+01:00' '2024-03-05T10:30:00,5Z' '2024-03-05T10-0330' '2024-03-05T10'
  '2024-03-05 10:30:15.123456789123' '1970-01-01 00:00:00 UTC' '1969-12-31 23:59:59 UTC'
  # @seconds
  '@0' '@1.5' '@-1.5' '@ 1700000000' '@+5' '@-0.000000001' '@9223372036854775807'
  '@9223372036854775808' '@5 days' '@' '@1e5'
  # other date forms
  '3/5/2024' '2024/3/5' '3/5/24' '3/5/69' '3/5/68' '3/5' '5 Mar 2024' 'Mar 5, 2024' 'Mar 5 2024'
  '17-JUN-1992' 'JUN-17-1992' '5 march' 'march 5' 'Sept 5' 'sep. 5, 2020' '20240305' '240305'
  '2024-02-29' '2023-02-29' '2024-13-01' '2024-00-10' '0000-01-01' '69-01-01' '99999-01-01'
  # times, meridians, zones
  '10am' '10:30pm' '12am' '12pm' '0am' '13pm' '10 a.m.' '23:59:60' '24:00' '10:60' '10:30:15'
  '10:00Z' '10Z' '10:00 UTC' '10:00 utc' '10:00 EST' '10:00 EDT' '10:00 CEST' '10:00 IST'
  '10:00 NZDT' '10:00 EST DST' '10:00 UTC+5' '10:00 UTC+5:30' '10:00 GMT-1' '10:00 -0330'
  '10:00 +05' '10:00 +123' '10:00 +2500' '10:00 a' '10:00 n' '10:00 y' '10:00 U.T.C.' 'T'
  '10:00 J' '2024-03-05 T' 'Tue, 05 Mar 2024 10:00:00 +0000' 'Mon Mar  4 12:00:00 UTC 2024'
  'TZ="Asia/Tokyo" 2024-03-05 10:00' 'TZ="UTC0" 2024-03-05' 'TZ="a\"b" 1' 'TZ="unclosed 1'
  # relative items and days
  'now' 'today' 'yesterday' 'tomorrow' '2 days ago' '-1 week' 'fortnight hence'
  '1.5 seconds ago' '1 day 2 hours 3 minutes ago' 'last month' 'next year' 'this thursday'
  'next friday' 'last monday' '3 wed' 'sunday' 'tues' 'fri,' '2024-03-05 -2 days'
  '20240305 -2 days' '20240305 2 days' '10:30 -5 days' '99999999999 years' '1 year ago'
  'yesterday ago' 'ago' 'noon' 'midnight'
  # blanks, comments, signs, numbers, junk
  '' ' ' '+' '-' ' 1' '1 ' '01' '123' '1234' '12345' '1k' '(comment) 2024-01-01'
  '2024-01-01 (unclosed' 'now now' '2024-01-01 2024-01-02' '10:00 11:00' 'foo' '2024-01-01x'
)

# One directory per date: files one second either side of and at the instant date(1) gives.
n=0
for zone in UTC America/New_York Europe/Paris; do
  for d in "${dates[@]}"; do
    n=$((n + 1))
    dir=d$n
    mkdir "$dir"
    # (Files only where their times fit frd's nanoseconds since 1970 in 64 bits: 1677-2262.)
    if at=$(TZ=$zone date -d "$d" +%s.%N 2>/dev/null) &&
      [ "${at%.*}" -gt -9223372035 ] && [ "${at%.*}" -lt 9223372035 ]; then
      sec=${at%.*}
      for k in -1 0 1; do
        touch -d "@$((sec + k)).${at#*.}" "$dir/at$k" 2>/dev/null || true
      done
    fi
    rc_find=0 rc_frd=0
    TZ=$zone find "$dir" -newermt "$d" >find.out 2>find.err || rc_find=$?
    TZ=$zone "$frdfind" "$dir" -newermt "$d" >frd.out 2>frd.err || rc_frd=$?
    sed -i 's/^find: /frdfind: /' find.err
    if cmp -s <(sort find.out) <(sort frd.out) && cmp -s find.err frd.err &&
      [ $rc_find = $rc_frd ]; then
      ok "TZ=$zone -newermt '$d': $(wc -l <find.out) newer, exit $rc_frd"
    else
      bad "TZ=$zone -newermt '$d': exit find $rc_find, frdfind $rc_frd"
      diff <(sort find.out) <(sort frd.out) | head -4 || true
      diff find.err frd.err | head -4 || true
    fi
  done
done
cli_end
