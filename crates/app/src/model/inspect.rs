//! The map's tooltip: what the frame under the pointer holds, in words, read from a
//! runner (the worker answers the page's ask with it).

use crate::model::format;
use crate::model::runner::Runner;
use crate::model::snapshot::{table_infos, TableInfo};
use ddlscope_engine::{CellKind, FrameInfo};
use ddlscope_map::layout::locate;

/// The tooltip at a point of `runner`'s map: `(x, y)` CSS px from the canvas's top
/// left, `width` its CSS width. `None` off the bands (a label row, outside).
pub fn tooltip(runner: &Runner, x: f64, y: f64, width: f64) -> Option<String> {
    let pool = runner.sim().pool();
    let sizes: Vec<u32> = pool.instances().iter().map(|inst| inst.size()).collect();
    let (instance, pos) = locate(&sizes, width, x, y)?;
    let info = pool.inspect(instance, pos)?;
    Some(describe(instance, &info, &table_infos(runner.sim())))
}

/// The tooltip for a frame: where it is, what it holds, its state.
pub fn describe(instance: u16, info: &FrameInfo, tables: &[TableInfo]) -> String {
    let c = &info.cell;
    let state = match c.kind {
        CellKind::Free => return format!("buf_pool[{instance}] · a free block"),
        CellKind::Memory => {
            return format!(
                "buf_pool[{instance}] · a frame lent to the adaptive hash index or the lock heaps"
            )
        }
        CellKind::Clean => "clean",
        CellKind::Dirty => "dirty",
        CellKind::Stale => "stale (its tablespace was dropped or truncated)",
        CellKind::Io => "being read or written",
    };
    let table = tables
        .iter()
        .find(|t| t.space == c.space)
        .map_or(format!("space {}", c.space.0), |t| {
            format!("{} (space {})", t.name, c.space.0)
        });
    let mut s = format!("buf_pool[{instance}] · {table}");
    if let Some(page) = info.page_no {
        s.push_str(&format!(" page {}", format::int(u64::from(page))));
    }
    s.push_str(&format!(" · {state}"));
    if let Some(pos) = info.lru_position {
        let sub = if c.old { "old" } else { "young" };
        s.push_str(&format!(
            " · LRU position {} ({sub})",
            format::int(u64::from(pos))
        ));
    }
    if let Some(lsn) = info.oldest_modification {
        s.push_str(&format!(
            " · oldest_modification LSN {}",
            format::int(lsn.0)
        ));
    }
    if c.ahi {
        s.push_str(" · has AHI entries");
    }
    s
}
