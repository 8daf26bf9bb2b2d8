# Draws the pictures of README.md into man/figures/ (run from the repository
# root with the package installed: Rscript tools/readme-figures.R).
library(dpdt)
train <- MASS::Pima.tr
fit <- dpdt_fit(type ~ ., data = train, max_depth = 3)
set.seed(2024)
cv <- dpdt_cv(fit, folds = 10)
png("man/figures/README-front.png", width = 1400, height = 800, res = 160)
plot(cv, main = "dpdt: the front of depth-3 trees (Pima.tr), with the CV curve")
dev.off()
png("man/figures/README-tree.png", width = 1400, height = 800, res = 160)
plot(cv, model = cv$model_1se)
dev.off()
