//! The colours the map (and the app's charts) draw with, in a light and a dark
//! variant.
//!
//! The app's page colours live in `web/styles.css` as CSS variables; the values below
//! mirror the stylesheet's (`--page-free`, `--surface-2`, `--text`, `--text-muted`,
//! `--border`), so a canvas and a poster drawn here match the page around them.
//!
//! Tablespaces get colours by space id from one palette, so a table keeps its colour
//! in the pool map, its legend and anywhere else it is drawn. Space 1 (t1 in the demo)
//! is orange and space 2 (t2) blue: the pair stays distinct for the common forms of
//! colour blindness, and neither is the bright yellow used for pages under I/O or the
//! red of the scan cursor.
//!
//! A page's state is a variation on its tablespace's colour (dirty darker, stale washed
//! out and striped, AHI-hashed dotted), so the map answers "whose page" and "in what
//! state" at once. States with no tablespace get neutrals: free blocks the page's
//! `--page-free`, frames lent to the AHI and lock heaps a strong neutral (dark on the
//! light theme, light on the dark one), and frames the 5.7 scan has already passed a
//! free colour tinted with the cursor's red.

use ddlscope_engine::SpaceId;

/// An sRGB colour.
pub type Rgb = [u8; 3];

/// Tablespace colours, indexed by space id (wrapping).
const SPACE_PALETTE: [Rgb; 8] = [
    [0x64, 0x74, 0x8b], // 0: the system tablespace, slate
    [0xf9, 0x73, 0x16], // 1: orange
    [0x3b, 0x82, 0xf6], // 2: blue
    [0x14, 0xb8, 0xa6], // 3: teal
    [0xec, 0x48, 0x99], // 4: pink
    [0x84, 0xcc, 0x16], // 5: lime
    [0x8b, 0x5c, 0xf6], // 6: violet
    [0xa1, 0x62, 0x07], // 7: brown
];

/// The colours one theme draws with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Whether this is the dark variant.
    pub dark: bool,
    /// Canvas background (`--surface-2`).
    pub background: Rgb,
    /// A free block (`--page-free`).
    pub free: Rgb,
    /// A page being read: bright in both themes.
    pub io: Rgb,
    /// Main text (`--text`).
    pub text: Rgb,
    /// Secondary text (`--text-muted`).
    pub text_muted: Rgb,
    /// Grid lines (`--border`).
    pub grid: Rgb,
    /// The scan cursor.
    pub cursor: Rgb,
    /// The old/young midpoint marker.
    pub marker: Rgb,
    /// Stale pages in charts (`--page-stale`).
    pub stale: Rgb,
    /// Free pages in charts (`--ok`).
    pub free_line: Rgb,
    /// DDL bands on charts (`--warning`).
    pub ddl_band: Rgb,
    /// Frames lent to the AHI and lock heaps (`Innodb_buffer_pool_pages_misc`), in the
    /// map and the charts: `--text` mixed 30% toward `--page-free`.
    pub memory: Rgb,
    /// Pages of the dropped tablespace the LRU scan's cursor has passed: freed by the
    /// time the scan releases the mutex (`--page-free` mixed 22% toward the cursor).
    pub freed: Rgb,
    /// Dirty pages in charts (`--page-dirty`).
    pub dirty_line: Rgb,
    /// Queries per second in charts.
    pub qps: Rgb,
    /// Mean statement latency in charts.
    pub latency_avg: Rgb,
    /// 95th percentile latency in charts.
    pub latency_p95: Rgb,
    /// Longest statement in charts.
    pub latency_max: Rgb,
    /// Lock-wait bands on charts, and the metadata-lock waits line.
    pub lock_band: Rgb,
    /// The failover band and marker on charts.
    pub failover: Rgb,
    /// `Innodb_buffer_pool_pages_total` in charts: a quiet reference line.
    pub total_line: Rgb,
    /// `Innodb_buffer_pool_reads` per second in charts.
    pub reads_line: Rgb,
    /// `Innodb_buffer_pool_read_requests` per second in charts.
    pub read_requests_line: Rgb,
    /// `Innodb_buffer_pool_wait_free` per second in charts.
    pub wait_free_line: Rgb,
    /// Sessions waiting for a row lock, in charts.
    pub row_lock_line: Rgb,
    /// Threads queued for an internal latch, in charts.
    pub latch_line: Rgb,
}

impl Theme {
    /// The light variant.
    pub const LIGHT: Theme = Theme {
        dark: false,
        background: [0xf0, 0xf2, 0xf5],
        free: [0xdd, 0xe1, 0xe6],
        io: [0xfd, 0xe0, 0x47],
        text: [0x1c, 0x21, 0x28],
        text_muted: [0x5b, 0x65, 0x70],
        grid: [0xdf, 0xe3, 0xe8],
        cursor: [0xe1, 0x1d, 0x48],
        marker: [0x1c, 0x21, 0x28],
        stale: [0xa8, 0x55, 0xf7],
        free_line: [0x15, 0x80, 0x3d],
        ddl_band: [0xb4, 0x53, 0x09],
        memory: [0x56, 0x5b, 0x61],
        freed: [0xde, 0xb6, 0xc3],
        dirty_line: [0xf5, 0x9e, 0x0b],
        qps: [0x08, 0x91, 0xb2],
        latency_avg: [0x15, 0x80, 0x3d],
        latency_p95: [0x7c, 0x3a, 0xed],
        latency_max: [0xe1, 0x1d, 0x48],
        lock_band: [0xc0, 0x26, 0xd3],
        failover: [0xb9, 0x1c, 0x1c],
        total_line: [0x94, 0xa3, 0xb8],
        reads_line: [0x25, 0x63, 0xeb],
        read_requests_line: [0x0d, 0x94, 0x88],
        wait_free_line: [0xdc, 0x26, 0x26],
        row_lock_line: [0xea, 0x58, 0x0c],
        latch_line: [0x25, 0x63, 0xeb],
    };

    /// The dark variant.
    pub const DARK: Theme = Theme {
        dark: true,
        background: [0x1e, 0x23, 0x2b],
        free: [0x2f, 0x35, 0x3e],
        io: [0xfe, 0xf0, 0x8a],
        text: [0xe6, 0xe9, 0xee],
        text_muted: [0x9a, 0xa4, 0xb1],
        grid: [0x2b, 0x32, 0x3c],
        cursor: [0xff, 0x4d, 0x6d],
        marker: [0xf8, 0xfa, 0xfc],
        stale: [0xc0, 0x84, 0xfc],
        free_line: [0x4a, 0xde, 0x80],
        ddl_band: [0xfb, 0xbf, 0x24],
        memory: [0xaf, 0xb3, 0xb9],
        freed: [0x5d, 0x3a, 0x48],
        dirty_line: [0xf5, 0x9e, 0x0b],
        qps: [0x22, 0xd3, 0xee],
        latency_avg: [0x4a, 0xde, 0x80],
        latency_p95: [0xc0, 0x84, 0xfc],
        latency_max: [0xff, 0x4d, 0x6d],
        lock_band: [0xf4, 0x72, 0xb6],
        failover: [0xf8, 0x71, 0x71],
        total_line: [0x64, 0x74, 0x8b],
        reads_line: [0x60, 0xa5, 0xfa],
        read_requests_line: [0x2d, 0xd4, 0xbf],
        wait_free_line: [0xf8, 0x71, 0x71],
        row_lock_line: [0xfb, 0x92, 0x3c],
        latch_line: [0x60, 0xa5, 0xfa],
    };

    /// The variant for a dark or light colour scheme.
    pub fn for_scheme(dark: bool) -> Theme {
        if dark {
            Theme::DARK
        } else {
            Theme::LIGHT
        }
    }

    /// The colour of a tablespace's clean pages.
    pub fn space(&self, space: SpaceId) -> Rgb {
        space_colour(space)
    }

    /// The colour of a tablespace's stale pages: hatching of the table colour, washed
    /// out toward the free-block colour (the pages are as good as free, not yet freed);
    /// `stripe` picks the stronger or the fainter stripe.
    pub fn stale_of(&self, space: SpaceId, stripe: bool) -> Rgb {
        let c = space_colour(space);
        mix(c, self.free, if stripe { 0.3 } else { 0.82 })
    }

    /// The colour of a tablespace's dirty pages: its colour, darkened.
    pub fn dirty_of(&self, space: SpaceId) -> Rgb {
        dirty_colour(space)
    }

    /// The dot marking a page with adaptive-hash-index entries, over `base`.
    pub fn ahi_dot(&self, base: Rgb) -> Rgb {
        mix(base, [0xff, 0xff, 0xff], 0.72)
    }
}

/// A tablespace's dirty-page colour, the same in both themes.
pub fn dirty_colour(space: SpaceId) -> Rgb {
    mix(space_colour(space), [0, 0, 0], 0.45)
}

/// A tablespace's colour, the same in both themes.
pub fn space_colour(space: SpaceId) -> Rgb {
    SPACE_PALETTE[space.0 as usize % SPACE_PALETTE.len()]
}

/// `a` moved toward `b` by `t` (0 = a, 1 = b).
pub fn mix(a: Rgb, b: Rgb, t: f64) -> Rgb {
    let f = |x: u8, y: u8| {
        (f64::from(x) + (f64::from(y) - f64::from(x)) * t)
            .round()
            .clamp(0.0, 255.0) as u8
    };
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2])]
}
