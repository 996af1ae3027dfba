//! Number formatting for people: page counts with thousands separators and virtual
//! time in seconds. Pure functions, so they are tested natively.
//!
//! The one home of the app's time formats. There are three, because they say
//! different things and print different strings:
//!
//! - [`secs`] `12.345`: a point on the virtual clock, to the millisecond (the clock,
//!   the scrubber, the console's log, the AHI note);
//! - [`secs_short`] `12.3 s`: a span on a chart band's label, rounded to a tenth;
//! - [`age`] `3 ms`, `12.3 s` (truncated), `4 min 05 s`, `2 h 03 min`: how long a
//!   metadata lock has been held or waited for, in the unit that reads best.

use ddlscope_engine::Tick;

/// `262144` → `"262,144"`.
pub fn int(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    // Digits left in the current group of three; the first group may be shorter.
    let mut group = match digits.len() % 3 {
        0 => 3,
        r => r,
    };
    for ch in digits.chars() {
        if group == 0 {
            out.push(',');
            group = 3;
        }
        out.push(ch);
        group -= 1;
    }
    out
}

/// Virtual time as seconds with millisecond precision: `12.345`.
pub fn secs(t: Tick) -> String {
    format!("{}.{:03}", t.as_secs(), t.as_ms() % 1000)
}

/// A time as people read it on the chart: `12.3 s` (rounded to a tenth).
pub fn secs_short(t: Tick) -> String {
    format!("{:.1} s", t.as_secs_f64())
}

/// A duration for people: `3 ms` (a sysbench client's lock), `12.3 s`, `4 min 05 s`,
/// `2 h 03 min`.
pub fn age(t: Tick) -> String {
    let s = t.as_secs();
    if s < 1 {
        format!("{} ms", t.as_ms())
    } else if s < 60 {
        format!("{}.{} s", s, (t.as_ms() % 1000) / 100)
    } else if s < 3600 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{} h {:02} min", s / 3600, (s % 3600) / 60)
    }
}

/// A speed factor as the select shows it: `0.05×`, `1×`, `10×`.
pub fn speed(x: f64) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}×")
}

/// A count on a chart axis (pages, queries per second): `0`, `50k`, `262k`.
pub fn count_short(v: f64) -> String {
    if v.abs() >= 1e6 {
        let m = format!("{:.1}", v / 1e6);
        format!("{}M", m.trim_end_matches(".0"))
    } else if v.abs() >= 1000.0 {
        format!("{:.0}k", v / 1000.0)
    } else {
        format!("{v:.0}")
    }
}

/// A busy text with its progress first ("building the buffer pool (8.4 M frames):
/// 45 %" as "45 % · building the buffer pool (8.4 M frames)"), so that a status line
/// cutting it short at the end, still shows how far it has got.
pub fn progress_first(busy: &str) -> String {
    match busy.rsplit_once(": ") {
        Some((what, pct)) if pct.ends_with(" %") => format!("{pct} · {what}"),
        _ => busy.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_get_thousands_separators() {
        let cases = [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (65536, "65,536"),
            (262_144, "262,144"),
            (1_234_567, "1,234,567"),
        ];
        for (n, want) in cases {
            assert_eq!(int(n), want, "{n}");
        }
    }

    #[test]
    fn seconds_keep_milliseconds() {
        assert_eq!(secs(Tick::from_ms(12_345)), "12.345");
        assert_eq!(secs(Tick::from_us(7_500)), "0.007");
        assert_eq!(secs(Tick::ZERO), "0.000");
    }

    #[test]
    fn chart_spans_round_to_tenths_and_ages_pick_their_unit() {
        assert_eq!(secs_short(Tick::from_ms(12_345)), "12.3 s");
        assert_eq!(secs_short(Tick::from_ms(12_360)), "12.4 s");
        assert_eq!(age(Tick::from_us(2_500)), "2 ms");
        assert_eq!(age(Tick::from_ms(400)), "400 ms");
        assert_eq!(age(Tick::from_ms(1_050)), "1.0 s");
        assert_eq!(age(Tick::from_ms(12_345)), "12.3 s");
        assert_eq!(age(Tick::from_ms(12_360)), "12.3 s");
        assert_eq!(age(Tick::from_secs(245)), "4 min 05 s");
        assert_eq!(age(Tick::from_secs(7_380)), "2 h 03 min");
    }

    #[test]
    fn speeds_drop_trailing_zeros() {
        assert_eq!(speed(0.05), "0.05×");
        assert_eq!(speed(0.1), "0.1×");
        assert_eq!(speed(0.25), "0.25×");
        assert_eq!(speed(1.0), "1×");
        assert_eq!(speed(10.0), "10×");
    }

    #[test]
    fn axis_labels_are_short() {
        assert_eq!(count_short(0.0), "0");
        assert_eq!(count_short(500.0), "500");
        assert_eq!(count_short(250_000.0), "250k");
        assert_eq!(count_short(1_000_000.0), "1M");
        assert_eq!(count_short(8_400_000.0), "8.4M");
    }

    #[test]
    fn progress_first_puts_the_percentage_where_a_cut_keeps_it() {
        assert_eq!(
            progress_first("building the buffer pool (8.4 M frames): 45 %"),
            "45 % · building the buffer pool (8.4 M frames)"
        );
        assert_eq!(
            progress_first("replaying to 9.2 s: 100 %"),
            "100 % · replaying to 9.2 s"
        );
        assert_eq!(
            progress_first("building a 128 GB pool…"),
            "building a 128 GB pool…"
        );
    }
}
