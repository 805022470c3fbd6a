package io.stork.store.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback HTTP server answering the two credential protocols the AWS SDK's default chain speaks over
 * HTTP, with keys the local store accepts, so that the SDK's own providers run unchanged against it:
 * <ul>
 *   <li>container credentials (ECS, EKS Pod Identity): {@code GET /container/credentials}, the URL for
 *       {@code AWS_CONTAINER_CREDENTIALS_FULL_URI} ({@link #containerUri()});</li>
 *   <li>instance metadata, IMDSv2: {@code PUT /latest/api/token}, then with that token {@code GET
 *       /latest/meta-data/iam/security-credentials/} (the role) and {@code .../<role>}; the endpoint for
 *       {@code AWS_EC2_METADATA_SERVICE_ENDPOINT} ({@link #endpoint()});</li>
 *   <li>STS {@code AssumeRoleWithWebIdentity} (EKS IRSA and other web identities): a form POST to
 *       {@code /}, the endpoint for {@code AWS_ENDPOINT_URL_STS} ({@link #endpoint()}), answered in STS's
 *       query-protocol XML; the web identity token it was sent is kept ({@link #webIdentityTokens()}).</li>
 * </ul>
 * Anything else (the SDK's newer "-extended" path among them) answers 404, which the SDK answers by the
 * legacy path. Every request is recorded ({@link #requests()}) with the headers tests look at.
 */
final class CredentialsEndpoint implements AutoCloseable {

    static final String ROLE = "stork-it-role";
    private static final String IMDS_TOKEN = "imds-session-token-for-tests";

    /** A request as the server saw it: method, path, and the headers that matter here. */
    record Request(String method, String path, String imdsToken) {
        String line() {
            return method + " " + path;
        }
    }

    private final HttpServer server;
    private final String accessKey;
    private final String secretKey;
    private final String sessionToken;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicLong> hits = new ConcurrentHashMap<>();
    private final List<String> webIdentityTokens = new CopyOnWriteArrayList<>();

    /** @param sessionToken the {@code Token} of the answers (real endpoints always send one); null: none */
    CredentialsEndpoint(String accessKey, String secretKey, String sessionToken) throws IOException {
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        this.sessionToken = sessionToken;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    URI containerUri() {
        return endpoint().resolve("/container/credentials");
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    long hits(String methodAndPath) {
        return requests.stream().filter(r -> r.line().equals(methodAndPath)).count();
    }

    /** The web identity tokens STS requests carried, in order. */
    List<String> webIdentityTokens() {
        return List.copyOf(webIdentityTokens);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        if (method.equals("POST") && path.equals("/")) {
            String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(new Request(method, path, null));
            try (exchange) {
                Map<String, String> params = new java.util.HashMap<>();
                for (String pair : form.split("&")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0) {
                        params.put(java.net.URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                                java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                    }
                }
                if ("AssumeRoleWithWebIdentity".equals(params.get("Action")) && params.get("WebIdentityToken") != null) {
                    webIdentityTokens.add(params.get("WebIdentityToken"));
                    exchange.getResponseHeaders().set("Content-Type", "text/xml");
                    send(exchange, 200, assumeRoleXml(params.getOrDefault("RoleArn", "")));
                } else {
                    send(exchange, 400, "");
                }
            }
            return;
        }
        String imdsToken = exchange.getRequestHeaders().getFirst("X-aws-ec2-metadata-token");
        requests.add(new Request(method, path, imdsToken));
        try (exchange) {
            if (method.equals("GET") && path.equals("/container/credentials")) {
                send(exchange, 200, credentialsJson(false));
            } else if (method.equals("PUT") && path.equals("/latest/api/token")
                    && exchange.getRequestHeaders().getFirst("X-aws-ec2-metadata-token-ttl-seconds") != null) {
                send(exchange, 200, IMDS_TOKEN);
            } else if (path.startsWith("/latest/meta-data/") && !IMDS_TOKEN.equals(imdsToken)) {
                send(exchange, 401, "");
            } else if (method.equals("GET") && path.equals("/latest/meta-data/iam/security-credentials/")) {
                send(exchange, 200, ROLE);
            } else if (method.equals("GET") && path.equals("/latest/meta-data/iam/security-credentials/" + ROLE)) {
                send(exchange, 200, credentialsJson(true));
            } else {
                send(exchange, 404, "");
            }
        }
    }

    private String credentialsJson(boolean imds) {
        String expiration = Instant.now().plus(6, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS).toString();
        return "{" + (imds ? "\"Code\":\"Success\",\"Type\":\"AWS-HMAC\",\"LastUpdated\":\""
                + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "\"," : "")
                + "\"AccessKeyId\":\"" + accessKey + "\",\"SecretAccessKey\":\"" + secretKey + "\","
                + (sessionToken == null ? "" : "\"Token\":\"" + sessionToken + "\",")
                + "\"Expiration\":\"" + expiration + "\"}";
    }

    private String assumeRoleXml(String roleArn) {
        String expiration = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS).toString();
        return "<AssumeRoleWithWebIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                + "<AssumeRoleWithWebIdentityResult><Credentials>"
                + "<AccessKeyId>" + accessKey + "</AccessKeyId><SecretAccessKey>" + secretKey + "</SecretAccessKey>"
                + "<SessionToken>" + (sessionToken == null ? "none" : sessionToken) + "</SessionToken>"
                + "<Expiration>" + expiration + "</Expiration></Credentials>"
                + "<SubjectFromWebIdentityToken>system:serviceaccount:stork:it</SubjectFromWebIdentityToken>"
                + "<AssumedRoleUser><Arn>" + roleArn + "/stork-it</Arn><AssumedRoleId>AROASTORKIT:stork-it"
                + "</AssumedRoleId></AssumedRoleUser><Provider>stork-it</Provider><Audience>sts.amazonaws.com</Audience>"
                + "</AssumeRoleWithWebIdentityResult><ResponseMetadata><RequestId>stork-it-1</RequestId>"
                + "</ResponseMetadata></AssumeRoleWithWebIdentityResponse>";
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
