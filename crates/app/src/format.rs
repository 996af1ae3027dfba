//! Number formatting for people: page counts with thousands separators and virtual
//! time in seconds. Pure functions, so they are tested natively.

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
}
