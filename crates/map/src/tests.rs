//! The map crate's own checks: a rendered map is the bands [`paint_instance`] paints,
//! its size follows the layout, and a DROP's sweep shows in it.

use super::*;
use ddlscope_engine::{Profile, Scenario, Sim, Tick};

fn demo(profile: &str, at: Tick) -> Sim {
    let scenario = Scenario::builtin("drop-table-demo").unwrap();
    let mut sim = Sim::new(scenario, Profile::builtin(profile).unwrap()).unwrap();
    sim.run_until(at);
    sim
}

/// How many pixels of `img` have colour `c`.
fn count(img: &MapImage, c: Rgb) -> usize {
    img.rgba.chunks_exact(4).filter(|p| p[..3] == c[..]).count()
}

#[test]
fn a_render_is_the_layout_s_size_and_the_background_shows_between_bands() {
    let sim = demo("mysql-5.7", Tick::from_secs(1));
    let img = render(&sim, &[], &Theme::LIGHT, 300, 2.0);
    let n = sim.pool().n_instances();
    assert_eq!(img.width, 600);
    assert_eq!(img.height, (css_height(n) * 2.0).round() as u32);
    assert_eq!(img.rgba.len(), (img.width * img.height * 4) as usize);
    // The first label row is background; the first band is not.
    let layout = Layout::new(n, img.width, 2.0);
    let row = |y: u32| &img.rgba[(y * img.width * 4) as usize..((y + 1) * img.width * 4) as usize];
    let bg = Theme::LIGHT.background;
    assert!(row(0).chunks_exact(4).all(|p| p[..3] == bg[..]));
    assert!(row(layout.band_top(0) + 1)
        .chunks_exact(4)
        .any(|p| p[..3] != bg[..]));
}

#[test]
fn the_same_moment_renders_the_same_pixels_and_another_theme_others() {
    let sim = demo("mysql-5.7", Tick::from_secs(1));
    let a = render(&sim, &[], &Theme::LIGHT, 200, 1.0);
    let again = render(
        &demo("mysql-5.7", Tick::from_secs(1)),
        &[],
        &Theme::LIGHT,
        200,
        1.0,
    );
    assert_eq!(a, again);
    let dark = render(&sim, &[], &Theme::DARK, 200, 1.0);
    assert_ne!(a.rgba, dark.rgba);
    // t1 and t2 both show, in their own colours.
    for space in [1, 2] {
        let c = theme::space_colour(ddlscope_engine::SpaceId(space));
        assert!(count(&a, c) > 100, "space {space}: {}", count(&a, c));
    }
}

#[test]
fn mid_sweep_the_dropped_table_is_freed_behind_the_cursor() {
    // drop-table-demo drops t1 at 10 s; on 5.7 the LRU scans run for a while after.
    let mut sim = demo("mysql-5.7", Tick::from_secs(10));
    let mut scans = Vec::new();
    for _ in 0..400 {
        sim.run_for(Tick::from_ms(10));
        scans = lru_scans(sim.events());
        if scans
            .iter()
            .any(|s| s.active(sim.now()) && s.visited(sim.now()) > 1000)
        {
            break;
        }
    }
    let now = sim.now();
    assert!(scans.iter().any(|s| s.active(now)), "a scan runs at {now}");
    let with = render(&sim, &scans, &Theme::LIGHT, 400, 1.0);
    let without = render(&sim, &[], &Theme::LIGHT, 400, 1.0);
    assert!(count(&with, Theme::LIGHT.freed) > 0);
    assert_eq!(count(&without, Theme::LIGHT.freed), 0);
}

/// `majority` as a plain tally of every shade, to check the one-shade path against.
fn tally_of(marks: &[Mark]) -> Mark {
    let mut seen: Vec<(Shade, u32)> = Vec::new();
    for m in marks {
        if let Some(slot) = seen.iter_mut().find(|(s, _)| *s == m.shade) {
            slot.1 += 1;
        } else if seen.len() < 8 {
            seen.push((m.shade, 1));
        }
    }
    let shade = seen
        .iter()
        .max_by_key(|(s, n)| (*n, s.priority()))
        .map_or(Shade::Free, |(s, _)| *s);
    let hashed = marks.iter().filter(|m| m.ahi).count() as u32;
    Mark {
        shade,
        ahi: shade.hashable() && 2 * hashed >= (marks.len() as u32).max(1),
    }
}

#[test]
fn a_pixel_s_majority_is_the_tally_s() {
    use ddlscope_engine::SpaceId;
    let kinds = [
        Shade::Free,
        Shade::Clean(SpaceId(1)),
        Shade::Clean(SpaceId(2)),
        Shade::Dirty(SpaceId(1)),
        Shade::Memory,
        Shade::Stale(SpaceId(3)),
        Shade::Freed,
        Shade::Io,
        Shade::Clean(SpaceId(4)),
        Shade::Dirty(SpaceId(5)),
    ];
    // A small deterministic generator: runs of one shade, mixes, ties.
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..20_000 {
        let len = (next() % 17) as usize;
        let spread = 1 + (next() % kinds.len() as u64) as usize;
        let marks: Vec<Mark> = (0..len)
            .map(|_| Mark {
                shade: kinds[(next() % spread as u64) as usize],
                ahi: next() % 3 == 0,
            })
            .collect();
        assert_eq!(
            shade::majority(marks.iter().copied()),
            tally_of(&marks),
            "{marks:?}"
        );
    }
}
