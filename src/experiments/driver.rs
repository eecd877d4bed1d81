//! The driver of every sweep: a grid's points in a fixed order ([`Experiment`]), run on
//! every processor ([`run_points`]), each point's figures one CSV line ([`CsvRow`],
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

/// The runs of `points` on every processor, in the order of `points`; the first error in
/// that order if any fails. `done` is called as each point ends, from the thread that ran
/// it.
pub fn run_points<E: Experiment>(
    experiment: &E,
    points: &[E::Point],
    done: &(dyn Fn() + Sync),
) -> Result<Vec<E::Row>, E::Error> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(points.len().max(1));
    type Numbered<E> = Vec<(
        usize,
        Result<<E as Experiment>::Row, <E as Experiment>::Error>,
    )>;
    let results: Vec<Numbered<E>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    (t..points.len())
                        .step_by(threads)
                        .map(|i| {
                            let row = experiment.run(&points[i]);
                            done();
                            (i, row)
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a sweep thread panicked"))
            .collect()
    });
    let mut rows: Numbered<E> = results.into_iter().flatten().collect();
    rows.sort_by_key(|(i, _)| *i);
    rows.into_iter().map(|(_, r)| r).collect()
}

/// `rows` as a CSV file: the header, then a line per row.
/// An optional CSV field: empty is `None`; `None` overall when the text does not parse.
pub fn optional_field<T: std::str::FromStr>(text: &str) -> Option<Option<T>> {
    if text.is_empty() {
        Some(None)
    } else {
        text.parse().ok().map(Some)
    }
}

pub fn csv_text<R: CsvRow>(rows: &[R]) -> String {
    let mut text = format!("{}\n", R::HEADER);
    for row in rows {
        text.push_str(&row.csv());
        text.push('\n');
    }
    text
}
