/**
 * The page at `/`: what this server is and where a person goes from here. Links are relative, so they
 * stay right when Placet is served under a path prefix (PUBLIC_URL with a path behind a proxy).
 */
export const LANDING_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Placet</title>
</head>
<body>
<main>
<h1>Placet</h1>
<p>This is a Placet consent management server.</p>
<ul>
<li><a href="console/">Console</a>: sign in as the agency or as a client to manage domains, texts and themes.</li>
<li><a href="docs">API documentation</a> (Hosting API and Domain API; the OpenAPI document is at <a href="openapi.json">openapi.json</a>).</li>
</ul>
</main>
</body>
</html>
`;
