//! One log line: its timestamp (in the layouts Kafka's log4j configs and
//! common deployments write), level, message and logger.
//!
//! Layouts read: `[2026-12-06 12:51:25,600] INFO msg (logger)` (Kafka's
//! own), ISO `2026-12-06T12:51:25.600Z INFO msg` (with `Z`, an offset or
//! none; `,` or `.` before the milliseconds), and either one after a
//! prefix such as a container or pod name (`kafka-0 | [2026-…] …`).

/// A line's parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// Milliseconds since 1970-01-01T00:00:00 UTC (local time when the line
    /// names no zone).
    pub at_ms: i64,
    /// The timestamp as `YYYY-MM-DDTHH:MM:SS.mmm`, as written (zone dropped).
    pub stamp: String,
    pub level: Option<&'a str>,
    pub message: &'a str,
    pub logger: Option<&'a str>,
}

/// How far into a line its timestamp may start (after a prefix).
const PREFIX_MAX: usize = 96;

/// The line's parts; `None` when it has no timestamp (a continuation line:
/// a stack trace, a config dump).
pub fn parse(line: &str) -> Option<Line<'_>> {
    if let Some((at_ms, name, message)) = super::client::rdkafka_line(line) {
        // librdkafka's own layout: a Unix time, the client's name.
        return Some(Line {
            at_ms,
            stamp: stamp_of(at_ms),
            level: Some("DEBUG"),
            message,
            logger: Some(name),
        });
    }
    let b = line.as_bytes();
    let start = (0..b.len().min(PREFIX_MAX)).find(|&i| date_at(b, i))?;
    let (at_ms, stamp, mut rest) = timestamp(line, start)?;
    if start > 0 && b[start - 1] == b'[' {
        rest = rest.strip_prefix(']').unwrap_or(rest);
    }
    let rest = rest.trim_start();
    let (level, rest) = match rest.split_once(' ') {
        Some((word, after)) if LEVELS.contains(&word) => (Some(word), after.trim_start()),
        _ => (None, rest),
    };
    let (message, logger) = split_logger(rest.trim_end());
    Some(Line {
        at_ms,
        stamp,
        level,
        message,
        logger,
    })
}

const LEVELS: [&str; 7] = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL", "OFF"];

/// `msg (logger.Name)` → (`msg`, `logger.Name`), when the last parentheses
/// hold a dotted class name.
fn split_logger(rest: &str) -> (&str, Option<&str>) {
    if let Some(open) = rest.strip_suffix(')').and_then(|r| r.rfind(" (")) {
        let name = &rest[open + 2..rest.len() - 1];
        if name.contains('.') && !name.contains(' ') {
            return (&rest[..open], Some(name));
        }
    }
    (rest, None)
}

/// `YYYY-MM-DD` followed by ` ` or `T` and `HH:MM:SS` at `i`.
fn date_at(b: &[u8], i: usize) -> bool {
    let digits = |from: usize, n: usize| {
        b.get(from..from + n)
            .is_some_and(|s| s.iter().all(u8::is_ascii_digit))
    };
    digits(i, 4)
        && b.get(i + 4) == Some(&b'-')
        && digits(i + 5, 2)
        && b.get(i + 7) == Some(&b'-')
        && digits(i + 8, 2)
        && matches!(b.get(i + 10), Some(b' ' | b'T'))
        && digits(i + 11, 2)
        && b.get(i + 13) == Some(&b':')
        && digits(i + 14, 2)
        && b.get(i + 16) == Some(&b':')
        && digits(i + 17, 2)
}

/// The timestamp at `start` (a [`date_at`]): its ms, its normal form and
/// what follows it.
fn timestamp(line: &str, start: usize) -> Option<(i64, String, &str)> {
    let s = &line[start..];
    let num = |a: usize, b: usize| s.get(a..b)?.parse::<i64>().ok();
    let (y, mo, d) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
    let (h, mi, sec) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let mut end = 19;
    let mut ms = 0;
    if matches!(s.as_bytes().get(19), Some(b',' | b'.')) {
        let digits = s[20..].bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            let frac = &s[20..20 + digits];
            let first3 = format!("{frac:0<3}");
            ms = first3[..3].parse().ok()?;
            end = 20 + digits;
        }
    }
    let mut offset_min = 0;
    let tail = &s[end..];
    if let Some(rest) = tail.strip_prefix('Z') {
        end += 1;
        let _ = rest;
    } else if let Some(sign) = tail.chars().next().filter(|c| *c == '+' || *c == '-') {
        let z = tail.as_bytes();
        let dig = |i: usize| {
            z.get(i)
                .filter(|c| c.is_ascii_digit())
                .map(|c| i64::from(c - b'0'))
        };
        if let (Some(a), Some(b)) = (dig(1), dig(2)) {
            let colon = usize::from(z.get(3) == Some(&b':'));
            if let (Some(c), Some(e)) = (dig(3 + colon), dig(4 + colon)) {
                offset_min = (a * 10 + b) * 60 + c * 10 + e;
                if sign == '-' {
                    offset_min = -offset_min;
                }
                end += 5 + colon;
            }
        }
    }
    let days = days_from_civil(y, mo, d);
    let at_ms = ((days * 24 + h) * 60 + mi - offset_min) * 60_000 + sec * 1000 + ms;
    let stamp = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{sec:02}.{ms:03}");
    Some((at_ms, stamp, &s[end..]))
}

/// `ms` since the Unix epoch as the stamps are written (UTC).
fn stamp_of(ms: i64) -> String {
    let (days, in_day) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    // Howard Hinnant's civil_from_days, the inverse of days_from_civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let (h, mi, sec, milli) = (
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000,
    );
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{sec:02}.{milli:03}")
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn librdkafkas_layout_reads_as_the_same_clock() {
        let k = parse("[2026-12-06 16:43:09,775] INFO x (a.B)").unwrap();
        let r = parse("%7|1796575389.775|ASSIGN|rdkafka#consumer-2| [thrd:main]: Group \"g\": hi")
            .unwrap();
        assert_eq!(
            (r.at_ms, r.stamp.as_str()),
            (k.at_ms, "2026-12-06T16:43:09.775")
        );
        assert_eq!(
            (r.message, r.logger),
            ("Group \"g\": hi", Some("rdkafka#consumer-2"))
        );
        assert_eq!(stamp_of(0), "1970-01-01T00:00:00.000");
        assert_eq!(stamp_of(951_782_400_123), "2000-02-29T00:00:00.123");
    }

    #[test]
    fn kafkas_own_layout() {
        let l = parse("[2026-12-06 12:51:25,600] INFO [GroupCoordinator 1]: Starting up. (kafka.coordinator.group.GroupCoordinator)").unwrap();
        assert_eq!(l.stamp, "2026-12-06T12:51:25.600");
        assert_eq!(l.level, Some("INFO"));
        assert_eq!(l.message, "[GroupCoordinator 1]: Starting up.");
        assert_eq!(l.logger, Some("kafka.coordinator.group.GroupCoordinator"));
        assert_eq!(
            l.at_ms % 86_400_000,
            ((12 * 60 + 51) * 60 + 25) * 1000 + 600
        );
    }

    #[test]
    fn iso_stamps_with_a_zone_and_a_pod_prefix() {
        let a = parse("kafka-0 | 2026-12-06T13:51:25.600+01:00 INFO hello").unwrap();
        let b = parse("2026-12-06T12:51:25.6Z WARN hello").unwrap();
        assert_eq!(a.at_ms, b.at_ms);
        assert_eq!(
            (a.message, a.level, b.level),
            ("hello", Some("INFO"), Some("WARN"))
        );
        let c = parse("pod/kafka-1 [2026-12-06 12:51:25,600] INFO x (a.B)").unwrap();
        assert_eq!(c.at_ms, b.at_ms);
        assert_eq!(c.message, "x");
    }

    #[test]
    fn a_line_without_a_timestamp_is_a_continuation() {
        assert_eq!(parse("\tgroup.max.size = 4"), None);
        assert_eq!(parse("java.lang.Exception: x"), None);
        assert_eq!(parse("[2026-13-06 12:51:25,600] INFO bad month"), None);
        assert_eq!(parse(""), None);
    }

    #[test]
    fn the_epoch_is_1970() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
    }
}
