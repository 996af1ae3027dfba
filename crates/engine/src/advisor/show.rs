//! Pasted `SHOW VARIABLES` and `SHOW TABLE STATUS` output, as the `mysql` client
//! prints it (a boxed table, `\G`'s vertical rows, or `-B`'s tab-separated lines):
//! the advisor takes what it needs, fills only the fields not given otherwise, and
//! notes each value it took and what it assumed.

use super::input::{InputBuilder, SETTABLE};
use crate::size::ByteSize;

/// One result row: (column, value) in column order.
type Row = Vec<(String, String)>;

/// The rows of a result set in any of the client's three layouts.
fn rows(text: &str) -> Result<Vec<Row>, String> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    let Some(first) = lines.first() else {
        return Err("empty".into());
    };
    if first.starts_with('+') || first.starts_with('|') {
        return Ok(boxed(&lines));
    }
    if lines.iter().any(|l| l.starts_with("***")) {
        return Ok(vertical(&lines));
    }
    if first.contains('\t') {
        let header: Vec<&str> = first.split('\t').collect();
        return Ok(lines[1..]
            .iter()
            .map(|l| zip_row(&header, l.split('\t')))
            .collect());
    }
    Err("not the mysql client's output (a +---+ table, \\G rows or tab-separated lines)".into())
}

/// A row's cells by column; cells missing at the end (an empty last value whose tab
/// was trimmed) are empty.
fn zip_row<'a>(header: &[&str], mut cells: impl Iterator<Item = &'a str>) -> Row {
    header
        .iter()
        .map(|h| {
            (
                h.trim().to_string(),
                cells.next().unwrap_or("").trim().to_string(),
            )
        })
        .collect()
}

/// `+---+` boxed tables: the first `|` line is the header.
fn boxed(lines: &[&str]) -> Vec<Row> {
    let cells = |l: &str| -> Vec<String> {
        let inner = l.trim().trim_start_matches('|').trim_end_matches('|');
        inner.split('|').map(|c| c.trim().to_string()).collect()
    };
    let mut data = lines.iter().filter(|l| l.trim_start().starts_with('|'));
    let Some(header) = data.next().map(|l| cells(l)) else {
        return Vec::new();
    };
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    data.map(|l| {
        let c = cells(l);
        zip_row(&header, c.iter().map(String::as_str))
    })
    .collect()
}

/// `\G`: `*** N. row ***` then `Column: value` lines.
fn vertical(lines: &[&str]) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    for l in lines {
        if l.starts_with("***") {
            out.push(Vec::new());
        } else if let (Some(row), Some((k, v))) = (out.last_mut(), l.split_once(':')) {
            row.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    out
}

fn get<'a>(row: &'a Row, column: &str) -> Option<&'a str> {
    row.iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(column))
        .map(|(_, v)| v.as_str())
}

/// The built-in profile closest to a `version` variable, or why there is none.
pub fn profile_for_version(version: &str) -> Result<&'static str, String> {
    let v = version.to_ascii_lowercase();
    let nums: Vec<u32> = v
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .take(3)
        .filter_map(|p| p.parse().ok())
        .collect();
    let (major, minor, patch) = match nums.as_slice() {
        [a, b, c, ..] => (*a, *b, *c),
        [a, b] => (*a, *b, 0),
        _ => return Err(format!("version '{version}': no version number in it")),
    };
    let profile = match (v.contains("mariadb"), major, minor) {
        (true, 10, 11) => "mariadb-10.11",
        (true, 5, 5) => "mariadb-5.5",
        (false, 5, 7) => "mysql-5.7",
        (false, 5, 5) => "mysql-5.5.30",
        (false, 5, 1) => "mysql-5.1",
        (false, 8, 0) if patch < 23 => "mysql-8.0.22",
        (false, 8, 0) if patch < 28 => "mysql-8.0.23",
        (false, 8, 0) if patch < 29 => "mysql-8.0.28",
        (false, 8, 0) => "mysql-8.0.29",
        (false, 8, 4) => "mysql-8.4",
        _ => {
            return Err(format!(
                "version '{version}': no profile models this server; give --profile"
            ))
        }
    };
    Ok(profile)
}

/// Takes the variables the advisor models from pasted `SHOW VARIABLES` output: the
/// version (for the profile), the pool, its instances, the AHI, the replication
/// plugin and the `--set` variables, where not given already.
pub fn read_show_variables(b: &mut InputBuilder, text: &str) -> Result<(), String> {
    let rows = rows(text).map_err(|e| format!("SHOW VARIABLES output: {e}"))?;
    let mut took = 0;
    for row in &rows {
        let (Some(name), Some(value)) = (get(row, "Variable_name"), get(row, "Value")) else {
            return Err("SHOW VARIABLES output: no Variable_name and Value columns".into());
        };
        let name = name.to_ascii_lowercase();
        let field = match name.as_str() {
            "version" => {
                if !b.has("profile") {
                    let p =
                        profile_for_version(value).map_err(|e| format!("SHOW VARIABLES: {e}"))?;
                    b.set("profile", p)?;
                    b.note(format!("from SHOW VARIABLES: version {value}, profile {p}"));
                    took += 1;
                }
                continue;
            }
            "innodb_buffer_pool_size" => "pool",
            "innodb_buffer_pool_instances" => "instances",
            "innodb_adaptive_hash_index" => "ahi",
            n if SETTABLE.contains(&n) => "set",
            _ => continue,
        };
        if field != "set" && b.has(field) {
            continue;
        }
        let arg = match field {
            "set" => format!("{name}={value}"),
            _ => value.to_string(),
        };
        b.set(field, &arg)
            .map_err(|e| format!("SHOW VARIABLES: {name} = {value}: {e}"))?;
        b.note(format!("from SHOW VARIABLES: {name} = {value}"));
        took += 1;
    }
    if took == 0 {
        return Err("SHOW VARIABLES output: none of the variables the advisor models (version, innodb_buffer_pool_size, ...)".into());
    }
    Ok(())
}

/// Takes `table`'s size, row format and partitioning from pasted `SHOW TABLE STATUS`
/// output, where not given already.
pub fn read_table_status(b: &mut InputBuilder, text: &str, table: &str) -> Result<(), String> {
    let rows = rows(text).map_err(|e| format!("SHOW TABLE STATUS output: {e}"))?;
    let row = rows
        .iter()
        .find(|r| get(r, "Name").is_some_and(|n| n.eq_ignore_ascii_case(table)))
        .ok_or_else(|| format!("SHOW TABLE STATUS output: no row for table {table}"))?;
    if let Some(engine) = get(row, "Engine").filter(|e| !e.eq_ignore_ascii_case("InnoDB")) {
        return Err(format!(
            "SHOW TABLE STATUS: {table} has Engine {engine}; the simulator models InnoDB"
        ));
    }
    let bytes = |col: &str| -> Result<u64, String> {
        get(row, col)
            .ok_or_else(|| format!("SHOW TABLE STATUS: no {col} column"))?
            .parse()
            .map_err(|_| format!("SHOW TABLE STATUS: {col} is not a number"))
    };
    if !b.has("table-size") && !b.has("table-rows") {
        let size = bytes("Data_length")? + bytes("Index_length")?;
        b.set("table-size", &size.to_string())?;
        b.note(format!(
            "from SHOW TABLE STATUS: the table's file is Data_length + Index_length = {}",
            ByteSize(size)
        ));
    }
    if let (false, Some(f)) = (b.has("row-format"), get(row, "Row_format")) {
        b.set("row-format", f)
            .map_err(|e| format!("SHOW TABLE STATUS: Row_format {f}: {e}"))?;
        b.note(format!("from SHOW TABLE STATUS: ROW_FORMAT={f}"));
    }
    let partitioned = get(row, "Create_options").is_some_and(|o| o.contains("partitioned"));
    if partitioned && !b.has("partitions") {
        return Err(format!(
            "SHOW TABLE STATUS: {table} is partitioned; give --partitions N (SHOW TABLE STATUS does not say how many)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
