package io.stork.manifest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What the commits after generation {@code from} up to {@code to} did to a dataset, in commit order: the
 * parts they added and the parts they dropped. What an incremental job polls for.
 */
public record Changes(long from, long to, List<ManifestPart> added, List<RemovedPart> removed) {

    public Changes {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
    }

    /** One part entering or leaving the dataset at a generation's commit. */
    public record Event(long generation, boolean added, ManifestPart part) {
    }

    /** The changes as one sequence in commit order (within a generation: removals, then additions). */
    public List<Event> inCommitOrder() {
        List<Event> events = new ArrayList<>(added.size() + removed.size());
        for (RemovedPart r : removed) {
            events.add(new Event(r.removedIn(), false, r.part()));
        }
        for (ManifestPart p : added) {
            events.add(new Event(p.addedIn(), true, p));
        }
        events.sort(Comparator.comparingLong(Event::generation).thenComparing(Event::added));
        return events;
    }

    /**
     * The changes between two generations a manifest can list ({@code from} may be 0: everything up to
     * {@code to}).
     *
     * @throws IllegalArgumentException if {@code from} is older than the manifest's restorable range
     */
    public static Changes between(Manifest manifest, long from, long to) {
        if (from > to || to > manifest.generation()) {
            throw new IllegalArgumentException("no changes from generation " + from + " to " + to
                    + " (the dataset is at generation " + manifest.generation() + ")");
        }
        if (from != 0 && from < manifest.restorableFrom()) {
            throw new IllegalArgumentException("changes since generation " + from + " are no longer known: "
                    + "the manifest keeps generations " + manifest.restorableFrom() + " to " + manifest.generation()
                    + " (retention)");
        }
        List<ManifestPart> added = new ArrayList<>();
        List<RemovedPart> removed = new ArrayList<>();
        for (ManifestPart p : manifest.parts()) {
            if (p.addedIn() > from && p.addedIn() <= to) {
                added.add(p);
            }
        }
        for (RemovedPart r : manifest.removed()) {
            if (r.part().addedIn() > from && r.part().addedIn() <= to) {
                added.add(r.part());
            }
            if (r.removedIn() > from && r.removedIn() <= to) {
                removed.add(r);
            }
        }
        added.sort(Comparator.comparingLong(ManifestPart::addedIn));
        removed.sort(Comparator.comparingLong(RemovedPart::removedIn));
        return new Changes(from, to, added, removed);
    }
}
