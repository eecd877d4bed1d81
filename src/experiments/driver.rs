//! The driver of every sweep: a grid's points in a fixed order ([`Experiment`]), run on
//! the run's threads ([`run_points`]), each point's figures one CSV line ([`CsvRow`],
//! [`csv_text`]) that the shards of a sweep write and its merge reads back.
//!
//! In: an experiment and the points of it to run (a shard: points whose position p has
//! `p % count == index`). Out: one row per point, in the order of the points.

/// A point's figures as one line of a sweep's CSV.
pub trait CsvRow: Sized + Send {
    /// The CSV header line, without its newline.
    const HEADER: &'static str;
    /// One CSV line, without its newline.
    fn csv(&self) -> String;
    /// A line written by [`CsvRow::csv`]; `None` if it is not one.
    fn parse_csv(line: &str) -> Option<Self>;
}

/// A grid of independent runs: its points in a fixed order, and the run of one.
pub trait Experiment: Sync {
    type Point: Sync;
    type Row: CsvRow;
    type Error: std::error::Error + Send + Sync + 'static;
    /// Every point, in the order shards number them.
    fn points(&self) -> Vec<Self::Point>;
    fn run(&self, point: &Self::Point) -> Result<Self::Row, Self::Error>;
}

/// The runs of `points` on the run's threads, in the order of `points`; the first error in
/// that order if any fails. `done` is called as each point ends, from the thread that ran
/// it.
pub fn run_points<E: Experiment>(
    experiment: &E,
    points: &[E::Point],
    done: &(dyn Fn() + Sync),
) -> Result<Vec<E::Row>, E::Error> {
    parallel_map(points, |point| {
        let row = experiment.run(point);
        done();
        row
    })
    .into_iter()
    .collect()
}

/// `f` of every item, on the run's threads (`--threads`), in the items' order. Each item is
/// a task of its own, so a long item does not hold back the items behind it; which thread
/// runs an item never changes its result or its place.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use rayon::prelude::*;
    items.par_iter().with_max_len(1).map(&f).collect()
}

/// An optional CSV field: empty is `None`; `None` overall when the text does not parse.
pub fn optional_field<T: std::str::FromStr>(text: &str) -> Option<Option<T>> {
    if text.is_empty() {
        Some(None)
    } else {
        text.parse().ok().map(Some)
    }
}

/// `text` as a CSV field: in double quotes, its own doubled, when it holds a comma or a
/// quote (RFC 4180).
pub fn csv_field(text: &str) -> String {
    match text.contains([',', '"']) {
        true => format!("\"{}\"", text.replace('"', "\"\"")),
        false => text.to_string(),
    }
}

/// The fields of a CSV line whose fields [`csv_field`] wrote; `None` if a quote is not
/// closed.
pub fn csv_fields(line: &str) -> Option<Vec<String>> {
    let (mut fields, mut field, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    fields.push(field);
    (!quoted).then_some(fields)
}

/// `rows` as a CSV file: the header, then a line per row.
pub fn csv_text<R: CsvRow>(rows: &[R]) -> String {
    let mut text = format!("{}\n", R::HEADER);
    for row in rows {
        text.push_str(&row.csv());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items of very different lengths come back in their order, each its own result.
    #[test]
    fn parallel_map_keeps_the_items_order() {
        let items: Vec<u64> = (0..50).collect();
        let slow_then_fast = |&i: &u64| {
            if i % 7 == 0 {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            i * i
        };
        let squares: Vec<u64> = items.iter().map(|i| i * i).collect();
        assert_eq!(parallel_map(&items, slow_then_fast), squares);
        assert_eq!(
            parallel_map(&[] as &[u64], slow_then_fast),
            Vec::<u64>::new()
        );
    }

    #[test]
    fn a_field_with_commas_or_quotes_survives_its_quoting() {
        let fields = ["--message-bytes 4,16@0.5", "say \"hi\"", "plain", ""];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        let line = line.join(",");
        assert_eq!(
            line,
            "\"--message-bytes 4,16@0.5\",\"say \"\"hi\"\"\",plain,"
        );
        assert_eq!(csv_fields(&line), Some(fields.map(String::from).to_vec()));
        assert_eq!(csv_fields("\"open,"), None);
    }
}
