package io.stork.bench.layout;

import static io.stork.bench.layout.LayoutReport.fmt;

import java.util.List;
import java.util.Locale;

/**
 * The targets, judged from the measured figures: the paper's reductions against reading everything
 * (k-d tree ×53 for 5×5 km boxes at 128 objects, at least ×18 for every box size and object count), the
 * history doing better again, and at least 2× fewer bytes than Delta's Z-order at the same object count.
 */
final class Targets {

    private static final String[] BOXES = {"box5", "box10", "box20"};

    private final LayoutReport report;
    private final List<Integer> objects;

    Targets(LayoutReport report, List<Integer> objects) {
        this.report = report;
        this.objects = objects;
    }

    String render() {
        StringBuilder md = new StringBuilder("## Targets\n\n| target | measured | met |\n|---|---|---|\n");
        if (objects.contains(128)) {
            double kd = report.reduction("box5", "everything", "kd", 128);
            double kdh = report.reduction("box5", "everything", "kd-history", 128);
            row(md, "k-d tree ×53 against reading everything, 5×5 km, 128 objects (paper, 2.3.4)", String.format(
                    Locale.ROOT, "(lat, lon) ×%s; with history ×%s", fmt(kd, 1), fmt(kdh, 1)), Math.max(kd, kdh) >= 53);
        }
        for (String layout : new String[] {"kd", "kd-history"}) {
            double min = Double.MAX_VALUE;
            String where = "";
            for (String box : BOXES) {
                for (int n : objects) {
                    double r = report.reduction(box, "everything", layout, n);
                    if (r < min) {
                        min = r;
                        where = box + " at " + n;
                    }
                }
            }
            row(md, "k-d tree " + (layout.equals("kd") ? "(lat, lon)" : "with history") + " ≥ ×18 against reading "
                    + "everything, every box size and object count", "lowest ×" + fmt(min, 1) + " (" + where + ")",
                    min >= 18);
        }
        double gridMin = Double.MAX_VALUE;
        double gridMax = 0;
        for (String box : BOXES) {
            for (int n : objects) {
                double r = report.reduction(box, "everything", "grid-p1", n);
                gridMin = Math.min(gridMin, r);
                gridMax = Math.max(gridMax, r);
            }
        }
        row(md, "grid precision 1 between ×2.5 and ×17 (paper, 2.3.3; for reference)", "×" + fmt(gridMin, 1) + " to ×"
                + fmt(gridMax, 1), gridMin >= 2.5);
        for (String base : new String[] {"kd", "kd-date"}) {
            int better = 0;
            int cells = 0;
            StringBuilder detail = new StringBuilder();
            for (String box : BOXES) {
                for (int n : objects) {
                    double r = report.reduction(box, base, "kd-history", n);
                    cells++;
                    better += r > 1 ? 1 : 0;
                    detail.append(detail.length() == 0 ? "" : ", ").append(box).append('/').append(n).append(" ×")
                            .append(fmt(r, 2));
                }
            }
            row(md, "better again with query history: bytes of the k-d tree on " + (base.equals("kd") ? "(lat, lon)"
                    : "(date, lat, lon) without history") + " / with history, foreseen boxes", better + " of " + cells
                    + ": " + detail, better == cells);
        }
        for (String base : new String[] {"kd", "kd-date"}) {
            // The history's own workload: its three box sizes in equal numbers, what its tree was built for.
            int better = 0;
            StringBuilder detail = new StringBuilder();
            for (int n : objects) {
                double baseBytes = 0;
                double historyBytes = 0;
                for (String box : BOXES) {
                    baseBytes += report.mean(box, base, n, 1);
                    historyBytes += report.mean(box, "kd-history", n, 1);
                }
                better += baseBytes > historyBytes ? 1 : 0;
                detail.append(detail.length() == 0 ? "" : ", ").append(n).append(" ×").append(fmt(baseBytes / historyBytes, 2));
            }
            row(md, "better again with query history, on the history's workload (all foreseen box queries): summed "
                    + "bytes of the k-d tree on " + (base.equals("kd") ? "(lat, lon)" : "(date, lat, lon) without history")
                    + " / with history", better + " of " + objects.size() + " object counts: " + detail,
                    better == objects.size());
        }
        for (String layout : new String[] {"kd", "kd-history"}) {
            int met = 0;
            int all = 0;
            double worst = Double.MAX_VALUE;
            for (String box : BOXES) {
                for (int n : objects) {
                    double r = report.reduction(box, "delta-zorder", layout, n);
                    all++;
                    met += r >= 2 ? 1 : 0;
                    worst = Math.min(worst, r);
                }
            }
            row(md, "k-d tree " + (layout.equals("kd") ? "(lat, lon)" : "with history") + ": ≥ 2× fewer bytes than "
                    + "Delta Z-order at the same object count (boxes)", met + " of " + all + " (box size, objects); "
                    + "lowest ×" + fmt(worst, 2), met == all);
        }
        return md.append('\n').toString();
    }

    private static void row(StringBuilder md, String target, String measured, boolean met) {
        md.append("| ").append(target).append(" | ").append(measured).append(" | ").append(met ? "yes" : "**no**")
                .append(" |\n");
    }
}
