package io.stork.layout.gridpocket;

/** A smart meter: id, how the home is heated ("elec" or "gaz"), its size in m², its city and place. */
public record Meter(long vid, String type, int size, City city, double lat, double lon) {
}
