//! The map's keyboard cursor: a column of one instance's band, moved by the arrow keys,
//! so a keyboard reader can read what the pointer's tooltip shows.
//!
//! ```text
//!   ←/→        one pixel column (Shift: a tenth of the band)
//!   ↑/↓        the same place in the previous / next instance's band
//!   Home/End   the LRU head / the band's end (the free list)
//!   PageUp/Dn  a tenth of the band
//! ```
//!
//! A column holds a contiguous run of LRU positions stacked top to bottom
//! (`ddlscope_map::layout`); the cursor reads the frame in the band's middle row.

use super::fit::Layout;

/// Where the cursor is: an instance's band and a pixel column of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapCursor {
    /// The buffer-pool instance.
    pub instance: u16,
    /// The CSS-pixel column, 0 = the LRU head.
    pub col: u32,
}

/// A cursor movement a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CursorMove {
    /// Toward the LRU head by `n` columns.
    Left(u32),
    /// Toward the free list by `n` columns.
    Right(u32),
    /// The previous instance.
    Up,
    /// The next instance.
    Down,
    /// The LRU head.
    Home,
    /// The band's last column.
    End,
}

impl CursorMove {
    /// The move `key` asks for on a band `cols` wide (`shift` held: bigger steps).
    pub fn from_key(key: &str, shift: bool, cols: u32) -> Option<CursorMove> {
        let page = (cols / 10).max(1);
        let step = if shift { page } else { 1 };
        Some(match key {
            "ArrowLeft" => CursorMove::Left(step),
            "ArrowRight" => CursorMove::Right(step),
            "PageUp" => CursorMove::Left(page),
            "PageDown" => CursorMove::Right(page),
            "ArrowUp" => CursorMove::Up,
            "ArrowDown" => CursorMove::Down,
            "Home" => CursorMove::Home,
            "End" => CursorMove::End,
            _ => return None,
        })
    }
}

impl MapCursor {
    /// The cursor after `m` on a map of `instances` bands `cols` columns wide.
    pub fn moved(self, m: CursorMove, instances: u16, cols: u32) -> MapCursor {
        let last_col = cols.saturating_sub(1);
        let last_instance = instances.saturating_sub(1);
        let c = self.clamped(instances, cols);
        match m {
            CursorMove::Left(n) => MapCursor {
                col: c.col.saturating_sub(n),
                ..c
            },
            CursorMove::Right(n) => MapCursor {
                col: c.col.saturating_add(n).min(last_col),
                ..c
            },
            CursorMove::Up => MapCursor {
                instance: c.instance.saturating_sub(1),
                ..c
            },
            CursorMove::Down => MapCursor {
                instance: (c.instance + 1).min(last_instance),
                ..c
            },
            CursorMove::Home => MapCursor { col: 0, ..c },
            CursorMove::End => MapCursor { col: last_col, ..c },
        }
    }

    /// The cursor kept inside a map that may have shrunk (a narrower window, another
    /// server with fewer instances).
    pub fn clamped(self, instances: u16, cols: u32) -> MapCursor {
        MapCursor {
            instance: self.instance.min(instances.saturating_sub(1)),
            col: self.col.min(cols.saturating_sub(1)),
        }
    }

    /// The point the cursor reads, CSS px from the canvas's top left: the column's
    /// middle in the band's middle row. `layout` at a device pixel ratio of 1.
    pub fn point(self, layout: &Layout) -> (f64, f64) {
        let x = f64::from(self.col) + 0.5;
        let y = f64::from(layout.band_top(self.instance)) + f64::from(layout.band_h) / 2.0;
        (x, y)
    }

    /// The cursor's box over its band, CSS px: left, top, height.
    pub fn marker(self, layout: &Layout) -> (f64, f64, f64) {
        (
            f64::from(self.col),
            f64::from(layout.band_top(self.instance)),
            f64::from(layout.band_h),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddlscope_map::layout::locate;

    #[test]
    fn the_cursor_reads_the_frame_the_pointer_would_at_the_same_place() {
        // Two instances of 1,000 frames, a 500 px map: the head, the middle and the
        // last column of the second band map to the positions the tooltip finds.
        let layout = Layout::new(2, 500, 1.0);
        let sizes = [1000, 1000];
        for (col, want) in [(0, 0), (250, 500), (499, 998)] {
            let c = MapCursor { instance: 1, col };
            let (x, y) = c.point(&layout);
            let (inst, pos) = locate(&sizes, 500.0, x, y).expect("on the band");
            assert_eq!(inst, 1);
            // The band's middle row of column `col`: within the column's run.
            assert!(
                pos >= want && pos < want + 2 + 1,
                "col {col}: pos {pos}, want about {want}"
            );
        }
    }

    #[test]
    fn keys_move_the_cursor_and_stop_at_the_edges() {
        let start = MapCursor {
            instance: 0,
            col: 5,
        };
        let mv = |c: MapCursor, key: &str, shift: bool| {
            c.moved(CursorMove::from_key(key, shift, 400).unwrap(), 3, 400)
        };
        assert_eq!(mv(start, "ArrowLeft", false).col, 4);
        assert_eq!(mv(start, "ArrowLeft", true).col, 0);
        assert_eq!(mv(start, "ArrowRight", true).col, 45);
        assert_eq!(mv(start, "PageDown", false).col, 45);
        assert_eq!(mv(start, "End", false).col, 399);
        assert_eq!(mv(mv(start, "End", false), "ArrowRight", false).col, 399);
        assert_eq!(mv(start, "ArrowUp", false).instance, 0);
        let down = mv(
            mv(mv(start, "ArrowDown", false), "ArrowDown", false),
            "ArrowDown",
            false,
        );
        assert_eq!((down.instance, down.col), (2, 5));
        assert_eq!(mv(down, "Home", false).col, 0);
        assert_eq!(CursorMove::from_key("Enter", false, 400), None);
    }

    #[test]
    fn a_cursor_past_a_shrunken_map_comes_back_inside_it() {
        let c = MapCursor {
            instance: 7,
            col: 900,
        };
        assert_eq!(
            c.clamped(4, 300),
            MapCursor {
                instance: 3,
                col: 299
            }
        );
        assert_eq!(
            c.moved(CursorMove::Left(1), 4, 300),
            MapCursor {
                instance: 3,
                col: 298
            }
        );
    }
}
