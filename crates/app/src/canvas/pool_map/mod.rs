//! The buffer-pool map: every frame of the pool, in LRU order, one band per instance.
//!
//! ```text
//!  buf_pool[0]  LRU 64,519 · old 23,800 · free 1,024          ▾old
//!  ┌────────────────────────────────────────────┬──────────────┬──┐
//!  │ head (young)  t1 t2 t2 t1 ...              │ old ... tail │fr│   column by column:
//!  └────────────────────────────────────────────┴──────────────┴──┘   each pixel column is
//!  buf_pool[1]  ...                    buf_pool[1] held ┃              a contiguous run of
//!  ┌───────────────────────────────────────────────────┃───────────┐  LRU positions
//! ```
//!
//! A band is filled column-major: pixel column `x` of a `w`-pixel band holds positions
//! `x·n/w ..(x+1)·n/w` (`n` = the instance's frames: its LRU list from the head, then
//! the frames lent to the AHI and lock heaps, then its free list), stacked top to
//! bottom. So a vertical line is one LRU position, and the scan cursor of
//! `buf_LRU_remove_all_pages()` is a vertical line that walks left, from the tail
//! toward the head. At the demo's 262,144 frames a pixel holds a few frames and takes
//! the colour of the most common state among them; ties go to the rarer, more telling
//! state (under I/O, then freed by a scan, stale, lent, dirty, clean, free), so no
//! state vanishes.
//!
//! Colours: clean pages in their tablespace's colour, dirty pages a darker shade of it,
//! stale pages (8.0.23 after a DROP) washed-out diagonal stripes of it, pages being
//! read or written bright yellow, lent frames (`Innodb_buffer_pool_pages_misc`) a
//! strong neutral, free blocks a pale one. A page carrying adaptive-hash-index entries
//! gets a light dot on a sparse grid, drawn where most of a pixel's frames are hashed:
//! a texture over the hashed region rather than a colour, so it combines with every
//! state above and survives aggregation.
//!
//! The 5.7 scan. The engine takes the instance mutex at the `Scan` span's `t0` and
//! frees the dropped tablespace's pages at `t1`, in one step: under the mutex no other
//! thread can see the list, so the walk's intermediate states exist only here. While a
//! span is active the map draws its cursor `visited(now)` blocks in from the tail and
//! every page of the tablespace between the cursor and the tail (not under I/O: the
//! real scan skips those and rescans) as freed, so the table's pages vanish behind the
//! cursor as it sweeps; at `t1` the engine's state catches up and the freed frames move
//! to the free list.
//!
//! ```text
//!   head ───────────────── cursor ◀── tail   free
//!   1 2 2 1 2 1 1 2 2 1 2 1 ┃ x 2 2 x x 2 x │ . . .      1 = t1, x = t1 freed by the scan
//! ```
//!
//! The worker builds the map in one RGBA buffer (`model::map_pixels`, with the map
//! crate's pixel functions) and posts the rows it repainted; the frame loop puts them
//! on the canvas with `putImageData` and draws the labels, the old/young midpoints
//! and the scan cursors over them with the 2D context. No DOM node per page.
//!
//! The files: `fit.rs` (sizing the canvas to the map crate's band geometry),
//! `paint.rs` (the overlays), `poster.rs` (the Share dialog's PNG of a moment),
//! `view.rs` (the panel component; the tooltip's text is
//! `model::inspect`), `cursor.rs` (the keyboard cursor that reads the same tooltip). The pure parts (shades, the pixel majority, the RGBA image, the
//! geometry and its point → frame inverse, the repaint order) are the `ddlscope-map`
//! crate's, which the CLI's `ddlscope poster` renders with too.

pub mod cursor;
pub mod fit;
pub mod paint;
mod poster;
mod view;

pub use crate::model::inspect::describe;
pub use fit::{band_order, css_height, fit_canvas, locate};
pub use paint::{draw_overlays, label_forms, smallest_text_px, Mark, Overlay, Shade, Swept};
pub use poster::poster_png;
pub use view::{
    clear_pointer_focus, keyboard_focused, mark_pointer_focus, Inspect, InspectAsk, PoolMap,
    PoolMapProps,
};

#[cfg(test)]
mod tests;
