//! Colours for the canvases: the map crate's [`Theme`] (shared with the CLI's
//! posters), and the CSS forms of its colours for the page's legends.
//!
//! Canvases cannot read CSS, so the page's light or dark choice is made with
//! `matchMedia` ([`dark_theme`]), and the theme's values mirror the stylesheet's.

use ddlscope_engine::SpaceId;
pub use ddlscope_map::theme::{dirty_colour, mix, space_colour, Rgb, Theme};

/// The theme the page shows: the `data-theme` attribute on `<html>` when the user
/// picked one, else the system's (`query`: `(prefers-color-scheme: dark)`).
pub fn dark_theme(query: Option<&web_sys::MediaQueryList>) -> bool {
    let chosen = gloo::utils::document()
        .document_element()
        .and_then(|e| e.get_attribute("data-theme"));
    match chosen.as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => query.is_some_and(|q| q.matches()),
    }
}

/// `#rrggbb`.
pub fn css(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// `rgba(r, g, b, a)`.
pub fn css_alpha(c: Rgb, alpha: f64) -> String {
    format!("rgba({}, {}, {}, {alpha})", c[0], c[1], c[2])
}

/// The CSS background of a legend swatch for stale pages of `space`: the map's
/// hatching, mixed with the page's own free-block colour so it follows the theme.
pub fn stale_swatch_css(space: SpaceId) -> String {
    let c = css(space_colour(space));
    format!(
        "repeating-linear-gradient(135deg, color-mix(in srgb, {c} 70%, var(--page-free)) 0 2px, \
         color-mix(in srgb, {c} 18%, var(--page-free)) 2px 4px)"
    )
}

/// A legend swatch's colour for what `pick` draws: the light theme's colour or the
/// dark one's, as the page's colour scheme says (CSS `light-dark()`).
pub fn swatch_css(pick: fn(&Theme) -> Rgb) -> String {
    format!(
        "light-dark({}, {})",
        css(pick(&Theme::LIGHT)),
        css(pick(&Theme::DARK))
    )
}

/// The CSS background of the legend swatch for a page with AHI entries: a light dot on
/// `space`'s colour.
pub fn ahi_swatch_css(space: SpaceId) -> String {
    format!(
        "radial-gradient(circle, rgb(255 255 255 / 0.85) 0 2px, transparent 2.5px), {}",
        css(space_colour(space))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How far apart two colours are: the sum of the channels' differences.
    fn distance(a: Rgb, b: Rgb) -> i32 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (i32::from(*x) - i32::from(y)).abs())
            .sum()
    }

    #[test]
    fn t1_and_t2_are_far_apart() {
        let (a, b) = (space_colour(SpaceId(1)), space_colour(SpaceId(2)));
        assert!(distance(a, b) > 300, "{a:?} vs {b:?}");
    }

    #[test]
    fn the_map_states_of_a_table_stay_apart() {
        // Clean, dirty and stale pages of t1 and the neutrals must not be confused.
        for theme in [Theme::LIGHT, Theme::DARK] {
            let t1 = SpaceId(1);
            let colours = [
                ("clean", theme.space(t1)),
                ("dirty", theme.dirty_of(t1)),
                ("stale", theme.stale_of(t1, true)),
                ("free", theme.free),
                ("memory", theme.memory),
                ("freed", theme.freed),
                ("io", theme.io),
                ("background", theme.background),
            ];
            for (i, (a, ca)) in colours.iter().enumerate() {
                for (b, cb) in &colours[i + 1..] {
                    assert!(
                        distance(*ca, *cb) >= 40,
                        "{a} {ca:?} vs {b} {cb:?} (dark: {})",
                        theme.dark
                    );
                }
            }
        }
    }

    #[test]
    fn the_lines_of_one_chart_stay_apart_on_its_background() {
        for theme in [Theme::LIGHT, Theme::DARK] {
            let charts: [&[(&str, Rgb)]; 3] = [
                &[
                    ("tps", theme.qps),
                    ("avg", theme.latency_avg),
                    ("p95", theme.latency_p95),
                    ("max", theme.latency_max),
                    ("statement", theme.ddl_band),
                    ("lock", theme.lock_band),
                ],
                &[
                    ("reads", theme.reads_line),
                    ("read requests", theme.read_requests_line),
                    ("wait_free", theme.wait_free_line),
                    ("statement", theme.ddl_band),
                    ("lock", theme.lock_band),
                ],
                &[
                    ("mdl", theme.lock_band),
                    ("row", theme.row_lock_line),
                    ("latch", theme.latch_line),
                    ("statement", theme.ddl_band),
                    ("failover", theme.failover),
                ],
            ];
            for lines in charts {
                for (i, (a, ca)) in lines.iter().enumerate() {
                    assert!(
                        distance(*ca, theme.background) >= 150,
                        "{a} on the background (dark: {})",
                        theme.dark
                    );
                    for (b, cb) in &lines[i + 1..] {
                        assert!(
                            distance(*ca, *cb) >= 60,
                            "{a} {ca:?} vs {b} {cb:?} (dark: {})",
                            theme.dark
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_neutrals_are_the_mixes_their_docs_and_swatches_name() {
        for theme in [Theme::LIGHT, Theme::DARK] {
            assert_eq!(theme.memory, mix(theme.text, theme.free, 0.3));
            assert_eq!(theme.freed, mix(theme.free, theme.cursor, 0.22));
        }
    }

    #[test]
    fn mixing_goes_from_one_colour_to_the_other() {
        assert_eq!(mix([0, 0, 0], [200, 100, 50], 0.0), [0, 0, 0]);
        assert_eq!(mix([0, 0, 0], [200, 100, 50], 1.0), [200, 100, 50]);
        assert_eq!(mix([0, 0, 0], [200, 100, 50], 0.5), [100, 50, 25]);
        assert_eq!(css([0xf9, 0x73, 0x16]), "#f97316");
    }
}
