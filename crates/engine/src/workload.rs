//! The client workload: sysbench's OLTP scripts, as the pages each statement touches.
//!
//! sysbench 1.0's `oltp_*` scripts send, per event (one transaction):
//!
//! | script            | statements                                                          |
//! |-------------------|---------------------------------------------------------------------|
//! | oltp_read_write   | BEGIN, 10 point SELECTs, 4 range SELECTs, UPDATE k, UPDATE c,        |
//! |                   | DELETE, INSERT, COMMIT: 20 (14 reads, 4 writes, 2 other)             |
//! | oltp_read_only    | BEGIN, 10 point SELECTs, 4 range SELECTs, COMMIT: 16                 |
//! | oltp_write_only   | BEGIN, UPDATE k, UPDATE c, DELETE, INSERT, COMMIT: 6                 |
//! | oltp_point_select | one point SELECT (autocommit)                                        |
//! | oltp_update_index | one UPDATE k (autocommit)                                            |
//! | oltp_insert       | one INSERT of a new row (autocommit)                                 |
//!
//! Each statement becomes the list of page operations the server would do: a B-tree
//! descent of the clustered index (root to leaf) for each row looked up, the following
//! leaves for a 100-row range, and for writes the leaf of each index entry changed.
//! Keys follow sysbench's distributions: uniform, special (`--rand-spec-pct=1`,
//! `--rand-spec-res=75`: 75% of draws go to 1% of the keys) and pareto (`--rand-pareto-h
//! =0.2`).

use crate::bufpool::PageNo;
use crate::detmath;
use crate::dict::Table;
use crate::rng::SimRng;
use serde::{Deserialize, Serialize};

/// A sysbench script.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkloadKind {
    /// `oltp_read_write`.
    OltpReadWrite,
    /// `oltp_read_only`.
    OltpReadOnly,
    /// `oltp_write_only`.
    OltpWriteOnly,
    /// `oltp_point_select`.
    OltpPointSelect,
    /// `oltp_update_index`.
    OltpUpdateIndex,
    /// `oltp_insert`.
    OltpInsert,
}

/// How keys are drawn (`--rand-type`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Distribution {
    /// Every key equally likely.
    Uniform,
    /// `--rand-spec-res` percent of draws go to the first `--rand-spec-pct` percent of
    /// keys (sysbench's default).
    #[default]
    Special,
    /// Pareto with `--rand-pareto-h`.
    Pareto,
}

/// Parameters of the key distribution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeyDist {
    /// Which distribution.
    pub kind: Distribution,
    /// `--rand-spec-pct`.
    pub special_pct: u32,
    /// `--rand-spec-res`.
    pub special_res: u32,
    /// Exponent for pareto: `ln(h) / ln(1-h)`.
    pareto_power: f64,
}

impl KeyDist {
    /// A distribution; `pareto_h` in (0, 1).
    pub fn new(kind: Distribution, special_pct: u32, special_res: u32, pareto_h: f64) -> KeyDist {
        KeyDist {
            kind,
            special_pct,
            special_res,
            pareto_power: detmath::ln(pareto_h) / detmath::ln(1.0 - pareto_h),
        }
    }

    /// The chance that [`KeyDist::draw`]`(rng, n)` gives a position below `x`
    /// (`0 <= x <= n`): what a bulk warm-up weighs a page's keys by.
    pub fn cdf(&self, x: u64, n: u64) -> f64 {
        let n = n.max(1);
        let x = x.min(n);
        let uniform = |x: u64, n: u64| x as f64 / n as f64;
        match self.kind {
            Distribution::Uniform => uniform(x, n),
            Distribution::Special => {
                let hot = (n * u64::from(self.special_pct) / 100).max(1);
                let res = f64::from(self.special_res) / 100.0;
                res * uniform(x.min(hot), hot) + (1.0 - res) * uniform(x, n)
            }
            Distribution::Pareto => {
                // floor(n * u^power) < x  <=>  u < (x/n)^(1/power).
                if x == 0 {
                    0.0
                } else if x == n {
                    1.0
                } else {
                    detmath::pow(uniform(x, n), 1.0 / self.pareto_power)
                }
            }
        }
    }

    /// A key position in `0..n`.
    pub fn draw(&self, rng: &mut SimRng, n: u64) -> u64 {
        let n = n.max(1);
        match self.kind {
            Distribution::Uniform => rng.below(n),
            Distribution::Special => {
                let hot = (n * u64::from(self.special_pct) / 100).max(1);
                if rng.chance(u64::from(self.special_res), 100) {
                    rng.below(hot)
                } else {
                    rng.below(n)
                }
            }
            Distribution::Pareto => {
                // sysbench: a + (b-a+1) * u^power.
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                let x = if u <= 0.0 {
                    0.0
                } else {
                    detmath::pow(u, self.pareto_power)
                };
                ((n as f64 * x) as u64).min(n - 1)
            }
        }
    }
}

/// What a statement is, for counting and for the processlist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatementKind {
    /// `BEGIN`.
    Begin,
    /// `SELECT c FROM sbtest WHERE id=?`.
    PointSelect,
    /// One of the four 100-row range SELECTs.
    RangeSelect,
    /// `UPDATE sbtest SET k=k+1 WHERE id=?`.
    UpdateIndex,
    /// `UPDATE sbtest SET c=? WHERE id=?`.
    UpdateNonIndex,
    /// `DELETE FROM sbtest WHERE id=?`.
    Delete,
    /// `INSERT INTO sbtest ...` of a new row at the right edge (oltp_insert).
    Insert,
    /// oltp_read_write's `INSERT` of the id its `DELETE` just removed.
    Reinsert,
    /// `COMMIT`.
    Commit,
}

impl StatementKind {
    /// Whether it changes rows.
    pub fn is_write(self) -> bool {
        matches!(
            self,
            StatementKind::UpdateIndex
                | StatementKind::UpdateNonIndex
                | StatementKind::Delete
                | StatementKind::Insert
                | StatementKind::Reinsert
        )
    }
}

/// One page a statement touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageOp {
    /// The page.
    pub page: PageNo,
    /// The statement modifies it (a leaf it changes).
    pub write: bool,
    /// The page is new at the end of the file (`buf_page_create()`, no read).
    pub create: bool,
}

/// The statements of one sysbench event.
pub fn event_statements(kind: WorkloadKind) -> &'static [StatementKind] {
    use StatementKind::*;
    const RW: [StatementKind; 20] = [
        Begin,
        PointSelect,
        PointSelect,
        PointSelect,
        PointSelect,
        PointSelect,
        PointSelect,
        PointSelect,
        PointSelect,
        PointSelect,
        PointSelect,
        RangeSelect,
        RangeSelect,
        RangeSelect,
        RangeSelect,
        UpdateIndex,
        UpdateNonIndex,
        Delete,
        Reinsert,
        Commit,
    ];
    match kind {
        WorkloadKind::OltpReadWrite => &RW,
        WorkloadKind::OltpReadOnly => {
            const RO: [StatementKind; 16] = [
                Begin,
                PointSelect,
                PointSelect,
                PointSelect,
                PointSelect,
                PointSelect,
                PointSelect,
                PointSelect,
                PointSelect,
                PointSelect,
                PointSelect,
                RangeSelect,
                RangeSelect,
                RangeSelect,
                RangeSelect,
                Commit,
            ];
            &RO
        }
        WorkloadKind::OltpWriteOnly => {
            &[Begin, UpdateIndex, UpdateNonIndex, Delete, Reinsert, Commit]
        }
        WorkloadKind::OltpPointSelect => &[PointSelect],
        WorkloadKind::OltpUpdateIndex => &[UpdateIndex],
        WorkloadKind::OltpInsert => &[Insert],
    }
}

/// sysbench's range size (`--range_size`).
pub const RANGE_ROWS: u64 = 100;

/// Fills `ops` with the pages statement `kind` touches on `table`, drawing keys from
/// `dist`. `append_row` is the table's next auto-increment position, for inserts; the
/// function returns how many rows it changed.
pub fn statement_ops(
    kind: StatementKind,
    table: &Table,
    dist: &KeyDist,
    rng: &mut SimRng,
    append_row: &mut u64,
    ops: &mut Vec<PageOp>,
) -> u64 {
    ops.clear();
    let pk = table.primary();
    let rows = table.rows.max(1);
    let descend = |pos: u64, write_leaf: bool, ops: &mut Vec<PageOp>| {
        let path = pk.search_path(pos);
        let last = path.len() - 1;
        ops.extend(path.enumerate().map(|(i, page)| PageOp {
            page,
            write: write_leaf && i == last,
            create: false,
        }));
    };
    let secondary_leaf = |k: u64| table.indexes.get(1).map(|ix| ix.leaf_of(k));
    match kind {
        StatementKind::Begin | StatementKind::Commit => 0,
        StatementKind::PointSelect => {
            descend(dist.draw(rng, rows), false, ops);
            0
        }
        StatementKind::RangeSelect => {
            let start = dist.draw(rng, rows);
            descend(start, false, ops);
            let first = pk.leaf_of(start);
            let last = pk.leaf_of((start + RANGE_ROWS - 1).min(rows - 1));
            for p in first + 1..=last {
                ops.push(PageOp {
                    page: p,
                    write: false,
                    create: false,
                });
            }
            0
        }
        StatementKind::UpdateNonIndex => {
            descend(dist.draw(rng, rows), true, ops);
            1
        }
        StatementKind::UpdateIndex | StatementKind::Delete | StatementKind::Reinsert => {
            descend(dist.draw(rng, rows), true, ops);
            // The secondary entry for the row's k (uniform at load time) is delete-marked,
            // and for UPDATE k=k+1 the new entry lands on the same or the next leaf.
            if let Some(leaf) = secondary_leaf(rng.below(rows)) {
                ops.push(PageOp {
                    page: leaf,
                    write: true,
                    create: false,
                });
            }
            1
        }
        StatementKind::Insert => {
            // sysbench's oltp_read_write re-inserts the id it deleted; oltp_insert appends
            // a new auto-increment id at the right edge of the tree.
            let pos = *append_row;
            *append_row += 1;
            if pos < rows {
                descend(pos, true, ops);
            } else {
                let leaf_ix = pos / pk.records_per_leaf;
                let path = pk.search_path(rows - 1);
                let last = path.len() - 1;
                ops.extend(path.take(last).map(|page| PageOp {
                    page,
                    write: false,
                    create: false,
                }));
                // Leaves past the loaded ones are allocated at the end of the file.
                let extra = leaf_ix - (pk.leaves() - 1);
                let page = if extra == 0 {
                    pk.leaf_of(rows - 1)
                } else {
                    table.pages + extra as PageNo - 1
                };
                ops.push(PageOp {
                    page,
                    write: true,
                    create: extra > 0 && pos.is_multiple_of(pk.records_per_leaf),
                });
            }
            if let Some(leaf) = secondary_leaf(rng.below(rows)) {
                ops.push(PageOp {
                    page: leaf,
                    write: true,
                    create: false,
                });
            }
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bufpool::SpaceId;

    #[test]
    fn read_write_is_twenty_statements_fourteen_reads_four_writes() {
        let s = event_statements(WorkloadKind::OltpReadWrite);
        assert_eq!(s.len(), 20);
        let reads = s
            .iter()
            .filter(|k| matches!(k, StatementKind::PointSelect | StatementKind::RangeSelect))
            .count();
        let writes = s.iter().filter(|k| k.is_write()).count();
        assert_eq!((reads, writes), (14, 4));
    }

    #[test]
    fn the_cdf_is_what_the_draws_give() {
        let n = 10_000;
        let draws = 400_000;
        for kind in [
            Distribution::Uniform,
            Distribution::Special,
            Distribution::Pareto,
        ] {
            let d = KeyDist::new(kind, 2, 75, 0.2);
            let mut rng = SimRng::stream(5, "cdf");
            let mut below = [0u32; 6];
            let cuts = [0, 1, 100, 200, 5_000, n];
            for _ in 0..draws {
                let pos = d.draw(&mut rng, n);
                for (c, &x) in below.iter_mut().zip(&cuts) {
                    *c += u32::from(pos < x);
                }
            }
            for (&c, &x) in below.iter().zip(&cuts) {
                let seen = f64::from(c) / f64::from(draws);
                let cdf = d.cdf(x, n);
                // Three standard deviations of a binomial proportion, at least 1e-3.
                let sd = (cdf * (1.0 - cdf) / f64::from(draws)).sqrt();
                assert!(
                    (seen - cdf).abs() <= (3.0 * sd).max(1e-3),
                    "{kind:?} below {x}: drawn {seen}, cdf {cdf}"
                );
            }
            assert_eq!(d.cdf(0, n), 0.0);
            assert_eq!(d.cdf(n, n), 1.0);
        }
    }

    #[test]
    fn special_sends_three_quarters_of_draws_to_one_percent_of_keys() {
        let d = KeyDist::new(Distribution::Special, 1, 75, 0.2);
        let mut rng = SimRng::stream(3, "t");
        let n = 1_000_000;
        let hot = (0..100_000)
            .filter(|_| d.draw(&mut rng, n) < n / 100)
            .count();
        // 75% special + 1% of the 25% uniform: 75.25%.
        assert!((74_800..75_700).contains(&hot), "{hot}");
    }

    #[test]
    fn pareto_concentrates_on_low_keys() {
        let d = KeyDist::new(Distribution::Pareto, 1, 75, 0.2);
        let mut rng = SimRng::stream(3, "t");
        let n = 1_000_000;
        let low = (0..100_000).filter(|_| d.draw(&mut rng, n) < n / 5).count();
        // Pareto h=0.2: 80% of draws in the lowest 20% of keys.
        assert!((79_000..81_000).contains(&low), "{low}");
    }

    #[test]
    fn statements_touch_the_pages_a_btree_search_would() {
        let t = Table::new("sbtest1", SpaceId(1), 1_000_000, 210, 1, 0);
        let d = KeyDist::new(Distribution::Uniform, 1, 75, 0.2);
        let mut rng = SimRng::stream(1, "t");
        let mut ops = Vec::new();
        let mut append = t.rows;
        statement_ops(
            StatementKind::PointSelect,
            &t,
            &d,
            &mut rng,
            &mut append,
            &mut ops,
        );
        assert_eq!(ops.len(), 3);
        assert!(ops.iter().all(|o| !o.write));
        statement_ops(
            StatementKind::RangeSelect,
            &t,
            &d,
            &mut rng,
            &mut append,
            &mut ops,
        );
        assert!(
            (4..=5).contains(&ops.len()),
            "descent + 1-2 more leaves: {ops:?}"
        );
        statement_ops(
            StatementKind::UpdateIndex,
            &t,
            &d,
            &mut rng,
            &mut append,
            &mut ops,
        );
        assert_eq!(
            ops.iter().filter(|o| o.write).count(),
            2,
            "clustered leaf and k leaf"
        );
        // Appends fill the last leaf, then create pages at the end of the file.
        let mut created = 0;
        for _ in 0..200 {
            statement_ops(
                StatementKind::Insert,
                &t,
                &d,
                &mut rng,
                &mut append,
                &mut ops,
            );
            created += ops.iter().filter(|o| o.create).count();
            assert!(ops.iter().all(|o| o.page < t.pages + 3));
        }
        // The last loaded leaf has room for 27 more rows; then a new leaf every 73 rows.
        assert_eq!(created, 3, "{append}");
    }
}
