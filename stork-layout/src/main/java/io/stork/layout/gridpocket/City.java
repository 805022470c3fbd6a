package io.stork.layout.gridpocket;

import java.util.List;

/** A city meters cluster around: its department number (the paper's "region", 1..95), place and weight. */
public record City(String name, int region, double lat, double lon, double weight) {

    /** Major cities of metropolitan France; weights are metro populations in thousands, rounded. */
    public static final List<City> FRANCE = List.of(
            new City("Paris", 75, 48.857, 2.352, 10800), new City("Lyon", 69, 45.764, 4.836, 1700),
            new City("Marseille", 13, 43.296, 5.370, 1600), new City("Lille", 59, 50.629, 3.057, 1200),
            new City("Toulouse", 31, 43.605, 1.444, 1000), new City("Bordeaux", 33, 44.838, -0.579, 950),
            new City("Nice", 6, 43.710, 7.262, 950), new City("Nantes", 44, 47.218, -1.554, 650),
            new City("Montpellier", 34, 43.611, 3.877, 600), new City("Toulon", 83, 43.124, 5.928, 550),
            new City("Strasbourg", 67, 48.573, 7.752, 500), new City("Rennes", 35, 48.117, -1.678, 450),
            new City("Grenoble", 38, 45.188, 5.724, 450), new City("Rouen", 76, 49.443, 1.099, 450),
            new City("Saint-Etienne", 42, 45.440, 4.387, 400), new City("Reims", 51, 49.258, 4.032, 300),
            new City("Clermont-Ferrand", 63, 45.778, 3.087, 300), new City("Metz", 57, 49.119, 6.176, 300),
            new City("Tours", 37, 47.394, 0.685, 300), new City("Nancy", 54, 48.692, 6.184, 280),
            new City("Orleans", 45, 47.903, 1.909, 280), new City("Dijon", 21, 47.322, 5.041, 250),
            new City("Angers", 49, 47.478, -0.563, 250), new City("Caen", 14, 49.183, -0.371, 250),
            new City("Le Havre", 76, 49.494, 0.108, 250), new City("Brest", 29, 48.390, -4.486, 200),
            new City("Le Mans", 72, 48.006, 0.199, 200), new City("Nimes", 30, 43.837, 4.360, 200),
            new City("Perpignan", 66, 42.699, 2.895, 200), new City("Amiens", 80, 49.894, 2.296, 180),
            new City("Limoges", 87, 45.834, 1.261, 180), new City("Besancon", 25, 47.238, 6.024, 180),
            new City("Pau", 64, 43.295, -0.371, 150));
}
