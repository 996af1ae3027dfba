//! Which panels a pane shows, in which order, in which of its two columns; and
//! whether the scenario card is open. Plain data in the page's state, so that it can
//! travel in a URL ([`PanelLayout::to_param`], [`PanelLayout::parse`]).
//!
//! ```text
//!   order   map  latches  flush │ tps  mdl  processlist  bp  waits
//!           ◀── first column ──▶│◀──────── second column ────────▶
//!                           split = 3
//!   param   "map,latches,flush|tps,mdl,processlist,bp,waits"   ("-mdl": hidden)
//! ```
//!
//! On a wide screen a pane is two columns: the first `split` panels of `order` go
//! in the first, the rest in the second, so the map, the latch lanes and the
//! throughput chart start at the top of the page. On a narrow screen it is one
//! column in the same order. Moving a panel down past the end of the first column
//! makes it the top of the second, and up past the top of the second the bottom of
//! the first: one list, one divider.

/// One of a pane's panels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PanelId {
    /// The buffer-pool map.
    Map,
    /// The latch lanes.
    Latches,
    /// The flush lists.
    Flush,
    /// Throughput and latency.
    Tps,
    /// The metadata locks.
    Mdl,
    /// SHOW PROCESSLIST.
    Processlist,
    /// Buffer-pool pages and rates.
    Bp,
    /// Lock and latch waits.
    Waits,
}

impl PanelId {
    /// Every panel, in the default order.
    pub const ALL: [PanelId; 8] = [
        PanelId::Map,
        PanelId::Latches,
        PanelId::Flush,
        PanelId::Tps,
        PanelId::Mdl,
        PanelId::Processlist,
        PanelId::Bp,
        PanelId::Waits,
    ];

    /// The name in a URL and in `data-panel`.
    pub fn name(self) -> &'static str {
        match self {
            PanelId::Map => "map",
            PanelId::Latches => "latches",
            PanelId::Flush => "flush",
            PanelId::Tps => "tps",
            PanelId::Mdl => "mdl",
            PanelId::Processlist => "processlist",
            PanelId::Bp => "bp",
            PanelId::Waits => "waits",
        }
    }

    /// The title in the panels menu.
    pub fn title(self) -> &'static str {
        match self {
            PanelId::Map => "Buffer pool map",
            PanelId::Latches => "Latches",
            PanelId::Flush => "Flush list",
            PanelId::Tps => "Throughput and latency",
            PanelId::Mdl => "Metadata locks",
            PanelId::Processlist => "Processlist",
            PanelId::Bp => "Buffer pool pages",
            PanelId::Waits => "Waits",
        }
    }

    /// The panel called `name`.
    pub fn from_name(name: &str) -> Option<PanelId> {
        PanelId::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// The panels of a pane: order, columns, hidden ones; and the scenario card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanelLayout {
    /// Every panel once, in display order.
    pub order: Vec<PanelId>,
    /// How many of `order` go in the first column on a wide screen.
    pub split: usize,
    /// The panels not shown.
    pub hidden: Vec<PanelId>,
    /// Whether the scenario card shows its description (it is one line otherwise).
    pub about_open: bool,
}

impl Default for PanelLayout {
    fn default() -> PanelLayout {
        PanelLayout {
            order: PanelId::ALL.to_vec(),
            split: 3,
            hidden: Vec::new(),
            about_open: false,
        }
    }
}

/// Which column a panel is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The first (left) column.
    First,
    /// The second.
    Second,
}

impl PanelLayout {
    /// Whether `panel` is shown.
    pub fn shown(&self, panel: PanelId) -> bool {
        !self.hidden.contains(&panel)
    }

    /// The shown panels of `column`, in order.
    pub fn column(&self, column: Column) -> Vec<PanelId> {
        let (first, second) = self.order.split_at(self.split.min(self.order.len()));
        let part = match column {
            Column::First => first,
            Column::Second => second,
        };
        part.iter().copied().filter(|p| self.shown(*p)).collect()
    }

    /// Shows or hides `panel`.
    pub fn toggle(&mut self, panel: PanelId) {
        if let Some(i) = self.hidden.iter().position(|p| *p == panel) {
            self.hidden.remove(i);
        } else {
            self.hidden.push(panel);
            self.hidden.sort();
        }
    }

    /// Moves `panel` one place up (`up`) or down; across the column divider first.
    /// Returns whether anything moved.
    pub fn step(&mut self, panel: PanelId, up: bool) -> bool {
        let Some(i) = self.order.iter().position(|p| *p == panel) else {
            return false;
        };
        let n = self.order.len();
        match (up, i) {
            // The top of the second column becomes the bottom of the first.
            (true, i) if i == self.split => self.split += 1,
            (true, 0) => return false,
            (true, i) => self.order.swap(i, i - 1),
            // The bottom of the first column becomes the top of the second.
            (false, i) if i + 1 == self.split => self.split -= 1,
            (false, i) if i + 1 >= n => return false,
            (false, i) => self.order.swap(i, i + 1),
        }
        true
    }

    /// The layout as a URL parameter: `map,latches,flush|tps,-mdl,processlist,bp,waits`
    /// (the divider between the columns, a hidden panel with a leading `-`); `+` at
    /// the start when the scenario card is open.
    pub fn to_param(&self) -> String {
        let name = |p: &PanelId| {
            let dash = if self.shown(*p) { "" } else { "-" };
            format!("{dash}{}", p.name())
        };
        let part = |s: &[PanelId]| s.iter().map(name).collect::<Vec<_>>().join(",");
        let (first, second) = self.order.split_at(self.split.min(self.order.len()));
        let open = if self.about_open { "+" } else { "" };
        format!("{open}{}|{}", part(first), part(second))
    }

    /// The layout a [`PanelLayout::to_param`] text describes. Panels it leaves out
    /// are appended, shown, to the second column; an unknown or repeated name is an
    /// error naming it.
    pub fn parse(text: &str) -> Result<PanelLayout, String> {
        let (about_open, text) = match text.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (first, second) = text.split_once('|').unwrap_or((text, ""));
        let mut layout = PanelLayout {
            order: Vec::new(),
            split: 0,
            hidden: Vec::new(),
            about_open,
        };
        for (column, part) in [first, second].into_iter().enumerate() {
            for item in part.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (hidden, name) = match item.strip_prefix('-') {
                    Some(n) => (true, n),
                    None => (false, item),
                };
                let panel = PanelId::from_name(name).ok_or_else(|| {
                    format!("unknown panel '{name}' (panels: {})", names().join(", "))
                })?;
                if layout.order.contains(&panel) {
                    return Err(format!("panel '{name}' is listed twice"));
                }
                layout.order.push(panel);
                if hidden {
                    layout.hidden.push(panel);
                }
                if column == 0 {
                    layout.split += 1;
                }
            }
        }
        for p in PanelId::ALL {
            if !layout.order.contains(&p) {
                layout.order.push(p);
            }
        }
        layout.hidden.sort();
        Ok(layout)
    }
}

fn names() -> Vec<&'static str> {
    PanelId::ALL.iter().map(|p| p.name()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use PanelId::*;

    #[test]
    fn the_default_puts_the_map_latches_and_throughput_at_the_top() {
        let l = PanelLayout::default();
        assert_eq!(l.column(Column::First), [Map, Latches, Flush]);
        assert_eq!(l.column(Column::Second)[0], Tps);
        assert_eq!(
            l.to_param(),
            "map,latches,flush|tps,mdl,processlist,bp,waits"
        );
    }

    #[test]
    fn stepping_crosses_the_divider_before_it_swaps() {
        let mut l = PanelLayout::default();
        assert!(l.step(Flush, false), "bottom of the first column");
        assert_eq!(l.column(Column::Second)[..2], [Flush, Tps]);
        assert!(l.step(Flush, true), "and back");
        assert_eq!(l, PanelLayout::default());
        assert!(l.step(Tps, true));
        assert_eq!(l.column(Column::First), [Map, Latches, Flush, Tps]);
        assert!(l.step(Tps, true));
        assert_eq!(l.column(Column::First), [Map, Latches, Tps, Flush]);
        assert!(!l.step(Map, true), "the top stays the top");
        assert!(!l.step(Waits, false), "the bottom stays the bottom");
    }

    #[test]
    fn hidden_panels_leave_their_column_and_the_param_round_trips() {
        let mut l = PanelLayout::default();
        l.toggle(Flush);
        l.toggle(Bp);
        l.about_open = true;
        assert_eq!(l.column(Column::First), [Map, Latches]);
        assert!(!l.column(Column::Second).contains(&Bp));
        let text = l.to_param();
        assert_eq!(text, "+map,latches,-flush|tps,mdl,processlist,-bp,waits");
        assert_eq!(PanelLayout::parse(&text), Ok(l.clone()));
        l.toggle(Flush);
        assert!(l.shown(Flush));
    }

    #[test]
    fn a_short_param_keeps_the_rest_and_a_bad_one_says_why() {
        let l = PanelLayout::parse("tps|map").unwrap();
        assert_eq!(l.column(Column::First), [Tps]);
        assert_eq!(l.column(Column::Second)[..2], [Map, Latches]);
        assert_eq!(l.order.len(), PanelId::ALL.len());
        let e = PanelLayout::parse("map,pool|tps").unwrap_err();
        assert!(
            e.starts_with("unknown panel 'pool' (panels: map, latches"),
            "{e}"
        );
        assert_eq!(
            PanelLayout::parse("map|map"),
            Err("panel 'map' is listed twice".into())
        );
    }
}
