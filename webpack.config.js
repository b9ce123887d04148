// Additions to @jupyter/builder's rspack configuration for the labextension
// (package.json jupyterlab.webpackConfig), merged into it.
module.exports = {
  module: {
    rules: [
      {
        // The style sheets (style/*.raw.css, loaded as strings by the
        // builder's rule) go through lightningcss first: comments and
        // whitespace out, nothing that changes what the rules do.
        test: /\.css$/,
        use: [
          {
            loader: 'builtin:lightningcss-loader',
            options: { minify: true }
          }
        ]
      }
    ]
  },
  optimization: {
    splitChunks: {
      cacheGroups: {
        // The third-party code bundled with the extension (the packages
        // jupyterlab.sharedPackages marks unshared) in a chunk per package.
        // Concatenated into the extension's chunk, or with each other, it
        // would be a little smaller, but the builder's license plugin sees
        // only the first module of a concatenation, so the other packages'
        // licenses would be missing from third-party-licenses.json (as
        // ansi-regex, inside strip-ansi, was).
        thirdParty: {
          test: /[\\/]node_modules[\\/]/,
          chunks: 'async',
          minSize: 0,
          enforce: true,
          name: module => {
            const found =
              /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(
                module.resource || ''
              );
            return `vendor-${found ? found[1].replace(/[\\/@]/g, '_') : 'other'}`;
          }
        }
      }
    }
  }
};
